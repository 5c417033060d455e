import type { ReactNode } from 'react';
import { CacheProvider } from '@/lib/reads';

/** What sits above the router: the data cache. (Modal and toast hosts live in the root layout,
 * inside the router, so their content can hold links.) */
export function Providers({ children }: { children: ReactNode }) {
  return <CacheProvider>{children}</CacheProvider>;
}
