/** The live stream gave up (the server kept refusing it): why, and a way to try again. */
export function LiveStreamError({ error, onReconnect }: { error: string | null; onReconnect: () => void }) {
  if (!error) return null;
  return (
    <div className="banner banner-warning" role="status">
      <p>{error}</p>
      <button type="button" className="btn btn-small" onClick={onReconnect}>
        Reconnect
      </button>
    </div>
  );
}
