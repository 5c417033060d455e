/** The pending screen inside an area: a small spinner with the same words as the overlay. */
export function Spinner({ label = 'Loading... Please wait...' }: { label?: string }) {
  return (
    <div className="inline-pending" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
