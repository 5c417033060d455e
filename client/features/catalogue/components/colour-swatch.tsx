import type { Colour } from '@contracts/catalogue.contract';
import { cssColour } from '../catalogue.api';

/**
 * A colour as a small square of it beside its name. The name is the text (what a screen reader
 * says and what search finds); the square is decoration, hidden from assistive technology.
 * Transparent colours get a glassy diagonal over the square.
 */
export function ColourSwatch({ colour }: { colour: Colour }) {
  const css = cssColour(colour.rgb);
  return (
    <span className="cat-colour">
      <span
        className={`cat-swatch${colour.transparent ? ' is-transparent' : ''}${css ? '' : ' is-unknown'}`}
        style={css ? { backgroundColor: css } : undefined}
        title={css ? `#${colour.rgb.toUpperCase()}` : undefined}
        aria-hidden="true"
      />
      <span className="cat-colour-name">{colour.name}</span>
    </span>
  );
}
