import { PageHeader } from '@/components/page-header';
import { Icon } from '@/components/icon';
import { useModal } from '@/components/modal-host';
import { spaces } from './spaces';
import type { Space } from './spaces';

export const handle = { title: 'Side panel' };

function SpaceDetails({ space, close }: { space: Space; close: () => void }) {
  return (
    <div className="stack">
      <p>{space.summary}</p>
      <dl className="facts">
        <div>
          <dt>Kind</dt>
          <dd>{space.kind}</dd>
        </div>
        <div>
          <dt>Floor</dt>
          <dd>{space.floor}</dd>
        </div>
        <div>
          <dt>Capacity</dt>
          <dd>{space.capacity} people</dd>
        </div>
        <div>
          <dt>Open</dt>
          <dd>{space.hours}</dd>
        </div>
      </dl>
      <h3 className="subheading">Amenities</h3>
      <ul className="tag-list">
        {space.amenities.map((a) => (
          <li key={a} className="tag">
            {a}
          </li>
        ))}
      </ul>
      <div className="panel-actions">
        <button type="button" className="btn" onClick={close}>
          Done
        </button>
      </div>
    </div>
  );
}

export function Component() {
  const modal = useModal();
  const openSpace = (space: Space) =>
    modal.open({
      variant: 'panel',
      title: space.name,
      description: `${space.kind} · ${space.floor}`,
      content: (close) => <SpaceDetails space={space} close={close} />,
    });
  return (
    <div className="stack-lg">
      <PageHeader eyebrow="Venue" title="Spaces">
        <p>Every room of the venue. Choose one to see its details in a side panel; Escape or a click outside closes it.</p>
      </PageHeader>
      <ul className="list-card" aria-label="Spaces">
        {spaces.map((space) => (
          <li key={space.id}>
            <button type="button" className="list-row" onClick={() => openSpace(space)} aria-haspopup="dialog">
              <span className="list-main">
                <span className="list-title">{space.name}</span>
                <span className="list-sub">{space.summary}</span>
              </span>
              <span className="list-meta">
                <span className="badge badge-muted">{space.kind}</span>
                <span className="muted">{space.floor}</span>
              </span>
              <Icon name="arrow" size={18} />
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
