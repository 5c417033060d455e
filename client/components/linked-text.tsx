import { Fragment } from 'react';
import { linkParts } from '@/lib/linked-text';

/**
 * Text as the sender typed it: line breaks kept, http(s) and www. links clickable (in a new tab,
 * followed without a referrer or the page's vouching), everything else literal. React escapes
 * every string, so `<b>x</b>` shows as those characters; this is never turned into HTML.
 */
export function LinkedText({ text, className }: { text: string; className?: string }) {
  return (
    <p className={className ? `linked-text ${className}` : 'linked-text'}>
      {linkParts(text).map((part, i) =>
        part.kind === 'link' ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow">
            {part.text}
          </a>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </p>
  );
}
