import { useState } from 'react';
import type { KisiUser } from '@contracts/kisi.contract';
import { useToast } from '@/components/toast-host';
import { kisiErrorMessage, setUserAccess } from '@/lib/kisi';

/** A user's door access as a real checkbox drawn as a switch, named for the person it changes. */
export function AccessSwitch({ name, checked, pending, onChange }: { name: string; checked: boolean; pending: boolean; onChange: (next: boolean) => void }) {
  return (
    <label className="switch">
      <input
        type="checkbox"
        role="switch"
        checked={checked}
        // Busy, not disabled: a disabled switch would drop the keyboard focus that just toggled it.
        aria-disabled={pending || undefined}
        aria-busy={pending}
        aria-label={`Door access for ${name}`}
        onChange={(event) => {
          if (!pending) onChange(event.target.checked);
        }}
      />
      <span className={`switch-text ${checked ? 'switch-text-on' : 'switch-text-off'}`} aria-hidden="true">
        {checked ? 'On' : 'Off'}
      </span>
    </label>
  );
}

/**
 * Switching door access optimistically: the new state shows at once (and the switch is busy)
 * until Kisi has answered and the user was read again; `onFresh` puts the re-read user where the
 * page shows it, `onUnknown` refetches when the re-read failed. A refusal rolls back with a toast.
 */
export function useAccessSwitch({ onFresh, onUnknown }: { onFresh: (user: KisiUser) => Promise<unknown>; onUnknown: () => Promise<unknown> }) {
  const toast = useToast();
  const [optimistic, setOptimistic] = useState<Record<number, boolean>>({});

  const switchAccess = async (user: KisiUser, enabled: boolean) => {
    setOptimistic((current) => ({ ...current, [user.id]: enabled }));
    try {
      const fresh = await setUserAccess(user.id, enabled);
      if (fresh) {
        await onFresh(fresh);
        toast.show({ tone: 'success', message: `Door access for ${fresh.name} is ${fresh.access_enabled ? 'on' : 'off'}.` });
      } else {
        await onUnknown();
        toast.show({ tone: 'info', message: `Door access for ${user.name} was switched ${enabled ? 'on' : 'off'}; Kisi did not answer when asked again.` });
      }
    } catch (error) {
      toast.show({ tone: 'error', title: `Could not switch door access ${enabled ? 'on' : 'off'} for ${user.name}`, message: kisiErrorMessage(error) });
    } finally {
      setOptimistic(({ [user.id]: _done, ...rest }) => rest);
    }
  };

  return {
    /** What the switch of `user` shows now. */
    shown: (user: KisiUser) => optimistic[user.id] ?? user.access_enabled,
    pending: (user: KisiUser) => user.id in optimistic,
    switchAccess: (user: KisiUser, enabled: boolean) => void switchAccess(user, enabled),
  };
}
