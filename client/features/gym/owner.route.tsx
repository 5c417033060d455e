import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { ownerReads, parseOwnerPageSearch } from '@pages/gym.reads';
import { EmptyState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { PageHeader } from '@/components/page-header';
import { Pagination } from '@/components/pagination';
import { useModal } from '@/components/modal-host';
import { paths } from '@/lib/paths';
import { AppLink } from '@/lib/app-link';
import { routeReads } from '@/lib/route-reads';
import { useSearch } from '@/lib/search-params';
import { useConfirmDelete } from '@/components/confirm-delete';
import { formatWhen } from '@/lib/format';
import { ownerDelete } from './components/gym-deletes';
import { CreateMemberForm } from './components/member-form';
import { MemberRows } from './components/member-rows';

/** `/gymowners/:id?page`: the owner and their members (a malformed or unknown id → not found). */
const reads = routeReads(ownerReads);
export const { loader } = reads;
export const handle = { title: 'Gym owner', ...reads.handle };

export function Component() {
  const { owner, members } = reads.useReads();
  const { page } = useSearch(parseOwnerPageSearch);
  const modal = useModal();
  const confirmDelete = useConfirmDelete();
  const navigate = useNavigate();

  const openAddMember = () =>
    modal.open({
      title: `Add a member to ${owner.gymName}`,
      content: (close) => <CreateMemberForm defaultOwnerId={owner.id} onCancel={close} onDone={(member) => navigate(paths.gymMember(member.id))} />,
    });

  const openDelete = () => confirmDelete({ ...ownerDelete(owner), afterDelete: () => navigate(`${paths.gymOwners}/`, { replace: true }) });

  const facts: [string, ReactNode][] = [
    ['Gym', owner.gymName],
    ['Email', <a key="e" href={`mailto:${owner.email}`}>{owner.email}</a>],
    ['Phone', owner.phone ? <a key="p" href={`tel:${owner.phone.replace(/[^+\d]/g, '')}`}>{owner.phone}</a> : <span key="p" className="muted">Not given</span>],
    ['Members', String(owner.memberCount)],
    ['Added', formatWhen(owner.createdAt)],
  ];

  return (
    <div className="stack-lg">
      <AppLink to={`${paths.gymOwners}/`} className="back-link">
        ← All owners
      </AppLink>
      <PageHeader
        eyebrow="Gym owner"
        title={owner.name}
        actions={
          <>
            <button type="button" className="btn btn-primary" onClick={openAddMember}>
              <Icon name="plus" size={18} /> Add member
            </button>
            <button type="button" className="btn" onClick={openDelete}>
              <Icon name="trash" size={18} /> Delete
            </button>
          </>
        }
      />
      <div className="gym-detail">
        <section className="card" aria-labelledby="owner-facts">
          <h2 id="owner-facts" className="card-heading">
            <Icon name="user" /> Details
          </h2>
          <dl className="facts">
            {facts.map(([term, value]) => (
              <div key={term}>
                <dt>{term}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section className="stack" aria-labelledby="owner-members">
          <h2 id="owner-members" className="section-title">
            Members of {owner.gymName}
          </h2>
          {members.items.length === 0 ? (
            <div className="card">
              {members.total > 0 ? (
                <EmptyState title="This page is past the end" action={<AppLink to={paths.gymOwner(owner.id)} className="btn btn-primary">Go to the first page</AppLink>} />
              ) : (
                <EmptyState
                  icon="users"
                  title="No members yet"
                  action={
                    <button type="button" className="btn btn-primary" onClick={openAddMember}>
                      Add a member
                    </button>
                  }
                >
                  {owner.name} can be deleted while the gym has no members.
                </EmptyState>
              )}
            </div>
          ) : (
            <MemberRows members={members.items} label={`Members of ${owner.gymName}`} showGym={false} />
          )}
          <Pagination
            page={page}
            pageSize={members.pageSize}
            total={members.total}
            hrefFor={(p) => (p > 1 ? `${paths.gymOwner(owner.id)}?page=${p}` : paths.gymOwner(owner.id))}
            label="Member pages"
            noun="members"
          />
        </section>
      </div>
    </div>
  );
}
