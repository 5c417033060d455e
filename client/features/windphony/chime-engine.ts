/**
 * A wind-chime synthesiser on the Web Audio API. Each rod is a struck free bar: a few sine partials
 * at the bar's mode ratios, each with a fast attack and its own exponential decay.
 */
const PARTIALS = [
  { ratio: 1, gain: 1, decay: 4.2 },
  { ratio: 2.756, gain: 0.42, decay: 2.4 },
  { ratio: 5.404, gain: 0.2, decay: 1.2 },
  { ratio: 8.933, gain: 0.09, decay: 0.6 },
];

export type Scale = { id: string; name: string; semitones: number[] };

export const SCALES: Scale[] = [
  { id: 'pentatonic', name: 'Major pentatonic', semitones: [0, 2, 4, 7, 9, 12, 14, 16] },
  { id: 'minor', name: 'Minor pentatonic', semitones: [0, 3, 5, 7, 10, 12, 15, 17] },
  { id: 'hirajoshi', name: 'Hirajōshi', semitones: [0, 2, 3, 7, 8, 12, 14, 15] },
  { id: 'lydian', name: 'Lydian', semitones: [0, 2, 4, 6, 7, 9, 11, 12] },
];

export const ROOT_HZ = 523.25; // C5: chimes sit high

export function frequencies(scale: Scale, root = ROOT_HZ): number[] {
  return scale.semitones.map((s) => root * 2 ** (s / 12));
}

type AudioContextConstructor = typeof AudioContext;

export function audioSupported(): boolean {
  return typeof window !== 'undefined' && ('AudioContext' in window || 'webkitAudioContext' in window);
}

export class ChimeEngine {
  private context: AudioContext | null = null;
  private master: GainNode | null = null;
  private volume = 0.6;

  /** Creates (or resumes) the audio context; browsers allow this only after a user gesture. */
  private ensure(): AudioContext | null {
    if (!audioSupported()) return null;
    if (!this.context) {
      const Ctor = (window.AudioContext ?? (window as unknown as { webkitAudioContext: AudioContextConstructor }).webkitAudioContext) as AudioContextConstructor;
      const context = new Ctor();
      const master = context.createGain();
      master.gain.value = this.volume;
      const compressor = context.createDynamicsCompressor();
      compressor.threshold.value = -18;
      compressor.ratio.value = 6;
      master.connect(compressor).connect(context.destination);
      this.context = context;
      this.master = master;
    }
    if (this.context.state === 'suspended') void this.context.resume();
    return this.context;
  }

  setVolume(volume: number) {
    this.volume = volume;
    if (this.master && this.context) this.master.gain.setTargetAtTime(volume, this.context.currentTime, 0.02);
  }

  /** Rings one rod at `frequency`; `strength` 0–1 is how hard it is struck. */
  strike(frequency: number, strength = 0.8): boolean {
    const context = this.ensure();
    if (!context || !this.master) return false;
    const now = context.currentTime;
    const detune = (Math.random() - 0.5) * 8;
    const voice = context.createGain();
    voice.gain.value = 0.22 * strength;
    voice.connect(this.master);
    for (const partial of PARTIALS) {
      const osc = context.createOscillator();
      osc.type = 'sine';
      osc.frequency.value = frequency * partial.ratio;
      osc.detune.value = detune;
      const env = context.createGain();
      env.gain.setValueAtTime(0.0001, now);
      env.gain.linearRampToValueAtTime(partial.gain, now + 0.004);
      env.gain.exponentialRampToValueAtTime(0.0001, now + partial.decay * (0.7 + strength * 0.3));
      osc.connect(env).connect(voice);
      osc.start(now);
      osc.stop(now + partial.decay + 0.1);
    }
    return true;
  }

  close() {
    void this.context?.close();
    this.context = null;
    this.master = null;
  }
}
