import { useNavigation } from 'react-router';
import { useSpinDelay } from 'spin-delay';

/** Skeletons show only when a page change takes this long, then stay long enough not to flicker. */
const SKELETON_TIMING = { delay: 300, minDuration: 300, ssr: false } as const;

/**
 * Whether the router is loading another page of the list at `pathname` (another page, search or
 * filter), and whether that has taken long enough to show skeletons in place of the old cards.
 */
export function useListLoading(pathname: string) {
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location.pathname === pathname;
  return { busy, skeletons: useSpinDelay(busy, SKELETON_TIMING) };
}

/** Grey cards in the shape of the real ones while a page loads; one polite "Loading…" for screen readers. */
export function CardSkeletons({ count, what, variant = 'card', six = false }: { count: number; what: string; variant?: 'card' | 'portrait' | 'row'; /** The six-a-page grid. */ six?: boolean }) {
  return (
    <div className="smp-skeletons">
      <p className="visually-hidden" role="status">
        Loading {what}…
      </p>
      <ul className={variant === 'row' ? 'smp-rows' : six ? 'smp-grid smp-grid-six' : 'smp-grid'} aria-hidden="true">
        {Array.from({ length: count }, (_, i) => (
          <li key={i} className={`smp-skeleton smp-skeleton-${variant}`}>
            {variant === 'row' ? null : <span className={`smp-skeleton-picture smp-picture-${variant}`} />}
            <span className="smp-skeleton-line" />
            <span className="smp-skeleton-line smp-skeleton-short" />
          </li>
        ))}
      </ul>
    </div>
  );
}
