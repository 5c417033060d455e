import { useState } from 'react';
import { Icon } from '@/components/icon';
import { playChime, wakeAudio } from '@/lib/chime-sound';
import { alertPermission, askAlertPermission, notifyChoices } from '@/lib/notify';
import { useStored } from '@/lib/stored-value';

const ALERT_HINTS: Record<'denied' | 'unsupported', string> = {
  denied: 'Blocked by the browser. Allow notifications for this site in the browser’s site settings, then turn them on here.',
  unsupported: 'This browser cannot show notifications.',
};

/**
 * "Sound and notifications" for this device: two switches (real checkboxes), each off until chosen.
 * The browser is asked for permission only when someone turns notifications on; a refusal shows as
 * "Blocked by the browser" rather than a switch that silently does nothing.
 */
export function NotifySettings() {
  const choices = useStored(notifyChoices);
  const [permission, setPermission] = useState(alertPermission);
  const [asking, setAsking] = useState(false);
  const alertsOn = choices.alerts && permission === 'granted';
  const unavailable = permission === 'denied' || permission === 'unsupported';

  const setSound = (on: boolean) => {
    notifyChoices.write({ ...notifyChoices.read(), sound: on });
    // Turned on with a tap: the browser lets the page play from now on, and the person hears what it sounds like.
    if (on) {
      wakeAudio();
      playChime();
    }
  };

  const setAlerts = async (on: boolean) => {
    if (!on) return notifyChoices.write({ ...notifyChoices.read(), alerts: false });
    setAsking(true);
    const answer = await askAlertPermission();
    setAsking(false);
    setPermission(answer);
    if (answer === 'granted') notifyChoices.write({ ...notifyChoices.read(), alerts: true });
  };

  return (
    <section className="card stack notify-settings" aria-labelledby="notify-title">
      <h2 id="notify-title" className="card-heading">
        <Icon name="chime" /> Sound and notifications
      </h2>
      <p className="muted">On this device, for a new guest help request, a chat message or a new order. Notifications show only while this tab is in the background.</p>
      <label className="notify-choice">
        <input type="checkbox" role="switch" checked={choices.sound} onChange={(event) => setSound(event.target.checked)} />
        Play a sound
      </label>
      <label className="notify-choice">
        <input
          type="checkbox"
          role="switch"
          checked={alertsOn}
          disabled={unavailable}
          aria-busy={asking}
          aria-describedby={unavailable ? 'notify-blocked' : undefined}
          onChange={(event) => void setAlerts(event.target.checked)}
        />
        Show browser notifications
      </label>
      {unavailable ? (
        <p id="notify-blocked" className="muted small">
          {ALERT_HINTS[permission]}
        </p>
      ) : null}
    </section>
  );
}
