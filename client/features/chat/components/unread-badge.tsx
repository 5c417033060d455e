/** A channel's unread count as a pill ("3", read out as "3 unread"); nothing when all is read. */
export function UnreadBadge({ count }: { count: number }) {
  if (!count) return null;
  return (
    <span className="chat-unread tabular">
      {count > 99 ? '99+' : count}
      <span className="visually-hidden"> unread</span>
    </span>
  );
}
