import { useState } from 'react';
import type { ComponentPropsWithRef, ReactNode } from 'react';
import { Field } from './form-fields';

/**
 * A password box with a Show button: on a phone a mistyped new password is easier to see than to
 * type twice. The button keeps its name ("Show password") and says whether it is on (aria-pressed).
 */
export function PasswordField({ label, error, hint, ...input }: { label: string; error?: string; hint?: ReactNode } & Omit<ComponentPropsWithRef<'input'>, 'type'>) {
  const [shown, setShown] = useState(false);
  return (
    <Field
      label={label}
      error={error}
      hint={hint}
      control={(props) => (
        <div className="password-input">
          <input {...props} {...input} type={shown ? 'text' : 'password'} autoCapitalize="off" autoCorrect="off" spellCheck={false} />
          <button type="button" className="btn btn-small btn-ghost" aria-pressed={shown} aria-label={`Show ${label.toLowerCase()}`} onClick={() => setShown((on) => !on)}>
            {shown ? 'Hide' : 'Show'}
          </button>
        </div>
      )}
    />
  );
}
