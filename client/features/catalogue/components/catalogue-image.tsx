import { useState } from 'react';
import { Icon } from '@/components/icon';

const SIZES = { large: [320, 240], card: [240, 180], thumb: [40, 40] } as const;

/**
 * A piece's or part's picture (our own `/api/rest/pictures?src=…` address, decision 0068), or a
 * neutral placeholder in the same frame when it has none or it does not load (offline, a dead
 * address: the BFF answers an error) — never a broken image, and nothing around it moves when it
 * fails. Decoration: the name beside it says what it is, so neither is announced.
 */
export function CatalogueImage({ src, size }: { src: string | null; size: keyof typeof SIZES }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!src || failedSrc === src) {
    return (
      <span className={`cat-image cat-image-${size} cat-image-none`} aria-hidden="true">
        <Icon name="image" size={size === 'thumb' ? 18 : 32} />
        {/* A row's thumbnail has no room for words: the icon says it alone. */}
        {size === 'thumb' ? null : <span>No picture</span>}
      </span>
    );
  }
  const [width, height] = SIZES[size];
  return (
    <span className={`cat-image cat-image-${size}`}>
      <img src={src} alt="" loading="lazy" decoding="async" width={width} height={height} onError={() => setFailedSrc(src)} />
    </span>
  );
}
