import { Suspense, createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { afterPaint } from '@/lib/after-paint';
import { preloadedComponent } from '@/lib/preloaded-component';
// The type only (erased in the build): the dialog's code itself is fetched when needed, below.
import type { ModalOptions } from './modal';

export type { ModalOptions };

type ModalApi = { open: (options: ModalOptions) => () => void; close: () => void };

const ModalContext = createContext<ModalApi | null>(null);

/**
 * The dialog itself (modal.tsx) is fetched by the first screen that may open one, once that screen
 * has painted: there by the time it is asked to open, and no part of a first screen without modals.
 * Asked for as the screen rendered, it went out with the page's own requests and a phone's first
 * paint waited for it too (a request more in flight while the page's scripts still download).
 */
const modalView = preloadedComponent(() => import('./modal').then(({ Modal }) => Modal));

export function useModal(): ModalApi {
  const modal = useContext(ModalContext);
  if (!modal) throw new Error('useModal() needs a <ModalProvider> above it');
  useEffect(() => afterPaint(() => void modalView.start()), []);
  return modal;
}

let seq = 0;

/** The modal host: one modal at a time; a navigation closes it. */
export function ModalProvider({ children }: { children: ReactNode }) {
  const [modal, setModal] = useState<(ModalOptions & { id: number }) | null>(null);
  // The modal last asked for (0: none), so one asked for before its code arrived opens only if still wanted.
  const wanted = useRef(0);
  const open = useCallback((options: ModalOptions) => {
    const id = ++seq;
    wanted.current = id;
    const show = () => void (wanted.current === id && setModal({ ...options, id }));
    // Its code is almost always there (fetched once the screen painted); a click before that opens it
    // when the code arrives (or fails, for its error boundary to say so), rather than suspending.
    if (modalView.ready()) show();
    else void modalView.start().then(show, show);
    return () => {
      if (wanted.current === id) wanted.current = 0;
      setModal((current) => (current?.id === id ? null : current));
    };
  }, []);
  const close = useCallback(() => {
    wanted.current = 0;
    setModal(null);
  }, []);
  const { pathname } = useLocation();
  useEffect(() => close(), [pathname, close]);
  const value = useMemo(() => ({ open, close }), [open, close]);
  return (
    <ModalContext.Provider value={value}>
      {children}
      {modal ? (
        <Suspense fallback={null}>
          <modalView.Component key={modal.id} {...modal} onClose={close} />
        </Suspense>
      ) : null}
    </ModalContext.Provider>
  );
}

