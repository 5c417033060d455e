/**
 * What `use-sync-external-store/shim` gives SWR under React 18 and later: React's own hook (the
 * shim's code checks for it and uses it). The build resolves the shim here (vite.config.ts), so its
 * fallback for older Reacts is not shipped to every page.
 */
export { useSyncExternalStore } from 'react';
