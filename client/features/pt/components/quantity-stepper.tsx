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
  // Off, but still focusable (aria-disabled): a button that went off under the keyboard's focus
  // (stepping down to 1, or while the order is placed) would drop the focus to the top of the page.
  const fewerOff = disabled || quantity <= 1;
  const moreOff = disabled || noMore || quantity >= MAX_QUANTITY;
  return (
    <div className="stepper" role="group" aria-label={`Quantity of ${dish}`}>
      <button type="button" className="icon-button" onClick={() => fewerOff || onChange(quantity - 1)} aria-disabled={fewerOff || undefined} aria-label={`One fewer ${dish}`}>
        <Icon name="minus" size={18} />
      </button>
      {children}
      <button
        type="button"
        className="icon-button"
        onClick={() => moreOff || onChange(quantity + 1)}
        aria-disabled={moreOff || undefined}
        aria-label={`One more ${dish}`}
        data-autofocus={focusMore || undefined}
      >
        <Icon name="plus" size={18} />
      </button>
    </div>
  );
}
