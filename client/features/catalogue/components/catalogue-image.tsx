import { useState } from 'react';

const SIZES = { large: [320, 240], card: [240, 180], thumb: [40, 40] } as const;

/**
 * A piece's or part's picture from the catalogue's image URL; nothing when it has none or it does
 * not load (an empty frame per row would only push the words aside, a broken one looks broken).
 * Decoration: the name beside it says what it is.
 */
export function CatalogueImage({ src, size }: { src: string | null; size: keyof typeof SIZES }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!src || failedSrc === src) return null;
  const [width, height] = SIZES[size];
  return (
    <span className={`cat-image cat-image-${size}`}>
      <img src={src} alt="" loading="lazy" decoding="async" width={width} height={height} onError={() => setFailedSrc(src)} />
    </span>
  );
}
