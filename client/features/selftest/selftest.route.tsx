import { useCallback, useEffect, useRef, useState } from 'react';
import { Icon } from '@/components/icon';
import { PageHeader } from '@/components/page-header';
import { checks } from './checks';
import type { CheckOutcome } from './checks';

export const handle = { title: 'Self-test' };

type Result = { state: 'running' } | (CheckOutcome & { ms: number });

const LABEL = { running: 'Running', ok: 'Passed', warn: 'Note', fail: 'Failed' } as const;

export function Component() {
  const [results, setResults] = useState<Record<string, Result>>({});
  const [runs, setRuns] = useState(0);
  const generation = useRef(0);

  const runAll = useCallback(() => {
    const gen = ++generation.current;
    setRuns((n) => n + 1);
    setResults(Object.fromEntries(checks.map((c) => [c.id, { state: 'running' } as Result])));
    for (const check of checks) {
      const started = performance.now();
      void check
        .run()
        .catch((error: unknown) => ({ state: 'fail' as const, detail: String(error) }))
        .then((outcome) => {
          if (gen !== generation.current) return;
          setResults((all) => ({ ...all, [check.id]: { ...outcome, ms: Math.round(performance.now() - started) } }));
        });
    }
  }, []);

  useEffect(() => {
    runAll();
    const gen = generation;
    return () => {
      gen.current++; // results of an unmounted page are dropped
    };
  }, [runAll]);

  const values = Object.values(results);
  const running = values.some((r) => r.state === 'running');
  const failed = values.filter((r) => r.state === 'fail').length;

  return (
    <div className="stack-lg narrow">
      <PageHeader
        eyebrow="Diagnostics"
        title="Self-test"
        actions={
          <button type="button" className="btn btn-primary" onClick={runAll} disabled={running}>
            <Icon name="refresh" size={16} />
            {running ? 'Testing…' : 'Run again'}
          </button>
        }
      >
        <p>Checks from this browser that Frontdesk works here: the API, your session, live events and storage.</p>
      </PageHeader>

      <p className={`summary ${running ? '' : failed ? 'summary-bad' : 'summary-ok'}`} role="status">
        {running ? 'Testing…' : failed ? `${failed} of ${checks.length} checks failed.` : `All ${checks.length} checks done, nothing failed.`}
        {runs > 1 && !running ? <span className="muted"> (run {runs})</span> : null}
      </p>

      <ul className="check-results" aria-label="Checks">
        {checks.map((check) => {
          const result = results[check.id] ?? { state: 'running' as const };
          return (
            <li key={check.id} className={`check check-${result.state}`} aria-busy={result.state === 'running'}>
              <span className="check-icon" aria-hidden="true">
                {result.state === 'running' ? (
                  <span className="spinner" />
                ) : (
                  <Icon name={result.state === 'ok' ? 'check' : result.state === 'warn' ? 'info' : 'cross'} size={18} />
                )}
              </span>
              <div className="check-text">
                <h2>
                  {check.title} <span className="check-state">{LABEL[result.state]}</span>
                </h2>
                <p className="muted">{check.what}</p>
                {result.state !== 'running' ? (
                  <p className="check-detail">
                    {result.detail} <span className="muted">({result.ms} ms)</span>
                  </p>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
