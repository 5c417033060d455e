import { Icon } from '@/components/icon';

export function Component() {
  return (
    <div className="empty-state">
      <span className="empty-icon" aria-hidden="true">
        <Icon name="arch" size={28} />
      </span>
      <h2>Choose an arco</h2>
      <p>Pick one from the list; its page opens here while the list stays.</p>
    </div>
  );
}
