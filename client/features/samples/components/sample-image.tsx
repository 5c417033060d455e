import { useState } from 'react';
import { Icon } from '@/components/icon';

/**
 * A sample's picture (our own `/api/samples/images?src=…` address), or a placeholder of the same
 * size when it has none or it fails to load. `alt` '' when the words beside it already say what
 * it is. `silhouette`: drawn all black (the quiz), until the caller reveals it.
 */
export function SampleImage({ src, alt, size, silhouette = false, eager = false }: { src: string | null; alt: string; size: 'card' | 'portrait' | 'large' | 'quiz'; silhouette?: boolean; eager?: boolean }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!src || failedSrc === src) {
    return (
      <span className={`smp-picture smp-picture-${size} smp-picture-none`} role={alt ? 'img' : undefined} aria-label={alt ? `${alt} (no picture)` : undefined}>
        <Icon name="image" size={32} />
        <span aria-hidden="true">No picture</span>
      </span>
    );
  }
  return (
    <span className={`smp-picture smp-picture-${size}`}>
      <img
        src={src}
        alt={alt}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
        width={300}
        height={300}
        className={silhouette ? 'smp-silhouette' : undefined}
        draggable={false}
        onError={() => setFailedSrc(src)}
      />
    </span>
  );
}
