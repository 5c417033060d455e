import type { ReactNode } from 'react';
import { MAX_QUANTITY } from '@contracts/pt.contract';
import { Icon } from '@/components/icon';

/**
 * − n + for how many of a dish (1 to MAX_QUANTITY): buttons a thumb can reach, so choosing two
 * raises no phone keyboard. `children` shows the number between them: the cart's count, or the
 * add-to-cart form's own field for those who would rather type it.
 */
export function QuantityStepper({
  dish,
  quantity,
  onChange,
  disabled = false,
  noMore = false,
  focusMore = false,
  children,
}: {
  dish: string;
  quantity: number;
  onChange: (quantity: number) => void;
  disabled?: boolean;
  /** "One more" is off whatever the count (a dish that has sold out). */
  noMore?: boolean;
  /** The dialog opens on "One more" (not on a typed field, whose keyboard would cover the dialog). */
  focusMore?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="stepper" role="group" aria-label={`Quantity of ${dish}`}>
      <button type="button" className="icon-button" onClick={() => onChange(quantity - 1)} disabled={disabled || quantity <= 1} aria-label={`One fewer ${dish}`}>
        <Icon name="minus" size={18} />
      </button>
      {children}
      <button
        type="button"
        className="icon-button"
        onClick={() => onChange(quantity + 1)}
        disabled={disabled || noMore || quantity >= MAX_QUANTITY}
        aria-label={`One more ${dish}`}
        data-autofocus={focusMore || undefined}
      >
        <Icon name="plus" size={18} />
      </button>
    </div>
  );
}
