/**
 * The icons of the page frame (header, toasts, the modal's close button), kept apart from the icon
 * set (icon.tsx) so the first screen does not load every screen's icons.
 */
export const frameShapes = {
  info: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z M12 16v-5 M12 8h.01',
  alert: 'M12 3 2 20h20z M12 10v4 M12 17h.01',
  logout: 'M15 4h4v16h-4 M10 8l-4 4 4 4 M6 12h10',
  close: 'M6 6l12 12 M18 6 6 18',
  check: 'M5 12l5 5 9-10',
  menu: 'M4 7h16 M4 12h16 M4 17h16',
} as const;

export type FrameIconName = keyof typeof frameShapes;

/** One 24×24 stroke path in currentColor, decorative unless labelled by the caller. */
export function IconFrame({ d, size = 20, label }: { d: string; size?: number; label?: string }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable="false"
    >
      <path d={d} />
    </svg>
  );
}

/** An icon of the frame set: `Icon` for the page frame. */
export function FrameIcon({ name, size, label }: { name: FrameIconName; size?: number; label?: string }) {
  return <IconFrame d={frameShapes[name]} size={size} label={label} />;
}
