/**
 * A short chime made with the Web Audio API (no sound file to load), shared by everything that wants
 * a person's attention: the kitchen screen's new ticket, the staff's opt-in notifications.
 * Browsers refuse audio until the page has had a tap, so a sound someone turns on is woken in that tap.
 */

type AudioContextClass = typeof AudioContext;
let context: AudioContext | undefined;

/** The page's one AudioContext, made (or woken) inside a tap so the browser lets it play later. */
export function wakeAudio(): AudioContext | undefined {
  const scope = window as unknown as { AudioContext?: AudioContextClass; webkitAudioContext?: AudioContextClass };
  const Audio = scope.AudioContext ?? scope.webkitAudioContext;
  if (!Audio) return undefined;
  try {
    context ??= new Audio();
    if (context.state === 'suspended') void context.resume();
  } catch {
    return undefined;
  }
  return context;
}

/** Two short rising notes (no sound file to load): loud enough over a kitchen, gone in under half a second. */
export function playChime(): void {
  const audio = wakeAudio();
  if (!audio) return;
  const start = audio.currentTime;
  for (const { frequency, at } of [
    { frequency: 880, at: start },
    { frequency: 1320, at: start + 0.14 },
  ]) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = 'sine';
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.35, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.3);
    tone.connect(gain).connect(audio.destination);
    tone.start(at);
    tone.stop(at + 0.32);
  }
}
