import { linkParts } from '@/features/chat/chat-format';

/**
 * A message's text as the sender typed it: line breaks kept, http(s) links clickable, everything
 * else literal. React escapes every string, so `<b>x</b>` shows as those characters; this is
 * never turned into HTML.
 */
export function MessageText({ text }: { text: string }) {
  return (
    <p className="chat-text">
      {linkParts(text).map((part, i) =>
        part.kind === 'link' ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer">
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  );
}
