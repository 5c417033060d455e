import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CSSProperties } from 'react';
import { Icon } from '@/components/icon';
import { PageHeader } from '@/components/page-header';
import { ChimeEngine, SCALES, audioSupported, frequencies } from './chime-engine';
import './windphony.css';

export const handle = { title: 'Windphony' };

/** One key per rod, along the home row. */
export const KEYS = ['a', 's', 'd', 'f', 'g', 'h', 'j', 'k'] as const;
const NOTE_NAMES = ['C', 'C♯', 'D', 'E♭', 'E', 'F', 'F♯', 'G', 'A♭', 'A', 'B♭', 'B'];

function isTyping(target: EventTarget | null) {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

export function Component() {
  const engine = useMemo(() => new ChimeEngine(), []);
  const [scaleId, setScaleId] = useState(SCALES[0]!.id);
  const [volume, setVolume] = useState(60);
  const [breeze, setBreeze] = useState(false);
  const [ringing, setRinging] = useState<Record<number, number>>({});
  const [rung, setRung] = useState(0);
  const supported = audioSupported();
  const scale = SCALES.find((s) => s.id === scaleId) ?? SCALES[0]!;
  const notes = useMemo(() => frequencies(scale), [scale]);
  const ringTimers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const ring = useCallback(
    (index: number, strength = 0.85) => {
      const frequency = notes[index];
      if (frequency === undefined) return;
      engine.strike(frequency, strength);
      setRung((n) => n + 1);
      setRinging((r) => ({ ...r, [index]: (r[index] ?? 0) + 1 }));
      clearTimeout(ringTimers.current.get(index));
      ringTimers.current.set(
        index,
        setTimeout(() => setRinging((r) => ({ ...r, [index]: 0 })), 900),
      );
    },
    [engine, notes],
  );

  useEffect(() => {
    const timers = ringTimers.current;
    return () => {
      for (const t of timers.values()) clearTimeout(t);
      engine.close();
    };
  }, [engine]);

  useEffect(() => engine.setVolume(volume / 100), [engine, volume]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.repeat || event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
      const index = KEYS.indexOf(event.key.toLowerCase() as (typeof KEYS)[number]);
      if (index >= 0) {
        event.preventDefault();
        ring(index);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [ring]);

  // The breeze: rods knock together at random, softly, a few times a second.
  useEffect(() => {
    if (!breeze) return;
    let timer: ReturnType<typeof setTimeout>;
    const gust = () => {
      ring(Math.floor(Math.random() * notes.length), 0.3 + Math.random() * 0.5);
      timer = setTimeout(gust, 180 + Math.random() * 900);
    };
    timer = setTimeout(gust, 100);
    return () => clearTimeout(timer);
  }, [breeze, ring, notes.length]);

  return (
    <div className="stack-lg">
      <PageHeader eyebrow="Instrument" title="Windphony">
        <p>
          A wind chime for the waiting area. Press <kbd>A</kbd> to <kbd>K</kbd>, or click the rods; let the breeze play
          it for you.
        </p>
      </PageHeader>

      {!supported ? (
        <p className="banner banner-warning" role="alert">
          This browser cannot play sound (no Web Audio API).
        </p>
      ) : null}

      <section className="chime-stage" aria-label="Chime rods">
        <div className="chime-bar" aria-hidden="true" />
        <div className="chime-rods">
          {notes.map((frequency, i) => {
            const semis = scale.semitones[i]!;
            const name = `${NOTE_NAMES[semis % 12]}${5 + Math.floor(semis / 12)}`;
            const active = (ringing[i] ?? 0) > 0;
            return (
              <button
                key={`${scale.id}-${i}`}
                type="button"
                className={`rod${active ? ' is-ringing' : ''}`}
                style={{ '--rod-length': `${100 - i * 7}%`, '--rod-hue': `${170 + i * 9}` } as CSSProperties}
                onPointerDown={(e) => {
                  e.preventDefault();
                  ring(i);
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    ring(i);
                  }
                }}
                // The name starts with what the rod shows (its key, then its note), so voice control can say it.
                aria-label={`${KEYS[i]!.toUpperCase()} ${name} (${Math.round(frequency)} Hz)`}
              >
                <span className="rod-string" aria-hidden="true" />
                <span className="rod-body" aria-hidden="true" />
                <span className="rod-key" aria-hidden="true">
                  {KEYS[i]!.toUpperCase()}
                </span>{' '}
                <span className="rod-note" aria-hidden="true">
                  {name}
                </span>
              </button>
            );
          })}
        </div>
      </section>

      <section className="card chime-controls" aria-label="Controls">
        <button
          type="button"
          className={`btn ${breeze ? 'btn-primary' : ''}`}
          aria-pressed={breeze}
          onClick={() => setBreeze((b) => !b)}
          disabled={!supported}
        >
          <Icon name={breeze ? 'stop' : 'play'} size={16} />
          {breeze ? 'Calm the breeze' : 'Let the breeze play'}
        </button>
        <label className="field-inline">
          <span>Scale</span>
          <select value={scaleId} onChange={(e) => setScaleId(e.target.value)}>
            {SCALES.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field-inline">
          <span>Volume</span>
          <input type="range" min={0} max={100} value={volume} onChange={(e) => setVolume(Number(e.target.value))} />
          <span className="muted tabular">{volume}%</span>
        </label>
        <p className="muted tabular" aria-live="off">
          {rung} {rung === 1 ? 'note' : 'notes'} rung
        </p>
      </section>
    </div>
  );
}
