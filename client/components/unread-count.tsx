/** An unread count as a pill ("3", "99+" past that, read out as "3 unread"); nothing when all is read. `className` gives its look where it stands. */
export function UnreadCount({ count, className }: { count: number; className: string }) {
  if (!count) return null;
  return (
    <span className={`${className} tabular`}>
      {count > 99 ? '99+' : count}
      <span className="visually-hidden"> unread</span>
    </span>
  );
}
