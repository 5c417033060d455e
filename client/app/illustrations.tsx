/** Decorative pictures for the fallback screens (inline, so an offline error still shows them). */
export function LostIllustration() {
  return (
    <svg className="illustration" viewBox="0 0 200 140" aria-hidden="true" focusable="false">
      <ellipse cx="100" cy="124" rx="78" ry="8" className="ill-shadow" />
      <path d="M36 118V62l64-36 64 36v56" className="ill-soft" />
      <rect x="52" y="70" width="96" height="48" rx="6" className="ill-card" />
      <path d="M100 84c-10 0-16 6-16 12h8c0-3 3-5 8-5s8 2 8 5c0 6-10 6-10 14h8c0-6 10-6 10-14 0-7-7-12-16-12z" className="ill-accent" />
      <circle cx="100" cy="112" r="3.5" className="ill-accent" />
      <circle cx="160" cy="34" r="6" className="ill-dot" />
      <circle cx="34" cy="40" r="4" className="ill-dot" />
    </svg>
  );
}

export function BrokenIllustration() {
  return (
    <svg className="illustration" viewBox="0 0 200 140" aria-hidden="true" focusable="false">
      <ellipse cx="100" cy="124" rx="78" ry="8" className="ill-shadow" />
      <path d="M18 82h44" className="ill-line" />
      <rect x="60" y="66" width="30" height="32" rx="6" className="ill-card" />
      <path d="M90 74h12 M90 90h12" className="ill-line" />
      <rect x="118" y="66" width="30" height="32" rx="6" className="ill-card" />
      <path d="M148 82h36" className="ill-line" />
      <path d="M108 58l-4 10 8 2-4 10" className="ill-warn" />
      <circle cx="40" cy="36" r="5" className="ill-dot" />
      <circle cx="166" cy="42" r="7" className="ill-dot" />
    </svg>
  );
}
