import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NotifySettings } from './notify-settings';
import { notifyChoices } from '@/lib/notify';
import { fakeAudioEachTest, fakeNotificationApiEachTest } from '@/test-support/test-utils';

const notices = fakeNotificationApiEachTest();
const audio = fakeAudioEachTest();

beforeEach(() => {
  window.localStorage.clear();
});

describe('NotifySettings', () => {
  it('remembers the choices on this device and asks the browser only when notifications are turned on', async () => {
    const user = userEvent.setup();
    const view = render(<NotifySettings />);
    const sound = screen.getByRole('switch', { name: 'Play a sound' });
    const alerts = screen.getByRole('switch', { name: 'Show browser notifications' });
    expect(sound).not.toBeChecked();
    expect(alerts).not.toBeChecked();
    expect(notices.asked).toBe(0);

    await user.click(sound);
    expect(sound).toBeChecked();
    expect(audio.tones).toBe(2); // a sample of what it sounds like
    await user.click(alerts);
    await waitFor(() => expect(alerts).toBeChecked());
    expect(notices.asked).toBe(1);
    expect(JSON.parse(window.localStorage.getItem('notify.choices')!)).toEqual({ sound: true, alerts: true });

    // Another visit on this device finds them on.
    view.unmount();
    render(<NotifySettings />);
    expect(screen.getByRole('switch', { name: 'Play a sound' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Show browser notifications' })).toBeChecked();
  });

  it('says "Blocked by the browser" when the browser refuses, and leaves notifications off', async () => {
    const user = userEvent.setup();
    notices.answer = 'denied';
    render(<NotifySettings />);
    const alerts = screen.getByRole('switch', { name: 'Show browser notifications' });
    await user.click(alerts);
    expect(await screen.findByText(/Blocked by the browser/)).toBeInTheDocument();
    expect(alerts).not.toBeChecked();
    expect(alerts).toBeDisabled();
    expect(notifyChoices.read().alerts).toBe(false);
  });
});
