import { useNavigation, useRevalidator } from 'react-router';
import { useSpinDelay } from 'spin-delay';

/** Shown only when the router has been busy 1000 ms, then kept at least 500 ms (docs/ARCHITECTURE.md "Client conventions"). */
export const PENDING_TIMING = { delay: 1000, minDuration: 500, ssr: false } as const;

export const PENDING_TEXT = 'Loading... Please wait...';

export function Overlay() {
  return (
    <div className="pending-overlay" role="status" aria-live="polite">
      <div className="pending-card">
        <span className="spinner spinner-lg" aria-hidden="true" />
        <p>{PENDING_TEXT}</p>
      </div>
    </div>
  );
}

/** The global overlay while navigations, submissions or revalidations run. */
export function RouterPendingOverlay() {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const busy = navigation.state !== 'idle' || revalidator.state !== 'idle';
  return useSpinDelay(busy, PENDING_TIMING) ? <Overlay /> : null;
}

/** The first load (the router renders this until the first loaders and chunks are in). */
export function HydrateFallback() {
  return useSpinDelay(true, PENDING_TIMING) ? <Overlay /> : null;
}
