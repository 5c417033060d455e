import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { CacheBridge, swrConfig } from '@/lib/cache';

/** What sits above the router: the data cache. (Modal and toast hosts live in the root layout,
 * inside the router, so their content can hold links.) */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <SWRConfig value={swrConfig}>
      <CacheBridge />
      {children}
    </SWRConfig>
  );
}
