import { useState } from 'react';
import { PageHeader } from '@/components/page-header';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { setCount, useCount } from './counter-store';

export const handle = { title: 'Counter' };

const STEPS = [1, 5, 10] as const;

export function Component() {
  const count = useCount();
  const [step, setStep] = useState<(typeof STEPS)[number]>(1);
  return (
    <div className="stack-lg narrow">
      <PageHeader eyebrow="Tally" title="Counter">
        <p>
          Count people through the door, trays out of the kitchen, anything. The count stays while you visit other
          pages — try <AppLink to={paths.about}>About</AppLink> and come back.
        </p>
      </PageHeader>

      <section className="card counter" aria-labelledby="count-label">
        <p id="count-label" className="counter-label">
          Current count
        </p>
        <output className="counter-value" aria-live="polite" aria-labelledby="count-label">
          {count}
        </output>
        <div className="counter-buttons">
          <button type="button" className="btn btn-big" onClick={() => setCount(count - step)} aria-label={`Decrease by ${step}`}>
            − {step}
          </button>
          <button type="button" className="btn btn-big btn-primary" onClick={() => setCount(count + step)} aria-label={`Increase by ${step}`}>
            + {step}
          </button>
        </div>
        <fieldset className="segmented">
          <legend>Step</legend>
          {STEPS.map((value) => (
            <label key={value}>
              <input type="radio" name="step" value={value} checked={step === value} onChange={() => setStep(value)} />
              <span>{value}</span>
            </label>
          ))}
        </fieldset>
        {/* aria-disabled at 0: a disabled button would drop the focus that just reset the count. */}
        <button type="button" className="btn btn-ghost" onClick={() => setCount(0)} aria-disabled={count === 0 || undefined}>
          Reset to 0
        </button>
      </section>
    </div>
  );
}
