import type { GymMember, GymOwner } from '@contracts/gym.contract';
import type { DeleteOptions } from '@/components/confirm-delete';
import { EraseChoice } from '@/components/erase-choice';
import { deleteMember, deleteOwner } from '@/features/gym/gym.api';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';

/**
 * Deleting a member, from the list or their own page (which adds where to go next). Their door access
 * is switched off in Kisi; ticked, the erasure also takes their name and email out of the history.
 */
export const memberDelete = (member: GymMember): DeleteOptions => {
  let erase = false;
  return {
    title: `Delete ${member.name}?`,
    confirmLabel: 'Delete member',
    body: (
      <>
        <p>
          {member.name} ({member.email}) will be removed from <strong>{member.gymName}</strong> and their door access switched off in Kisi (their Kisi user stays).
        </p>
        <EraseChoice
          onChange={(value) => (erase = value)}
          keeps={`Their door events, unlocks and conversations stay as anonymous counts; the audit trail calls them member #${member.id}.`}
        />
      </>
    ),
    remove: () => deleteMember({ params: { id: member.id }, query: { erase } }),
    deleted: `${member.name} was deleted.`,
  };
};

/** Deleting an owner, from the list or their own page: not while the gym has members (the server refuses too). */
export const ownerDelete = (owner: GymOwner): DeleteOptions => ({
  title: `Delete ${owner.name}?`,
  confirmLabel: 'Delete owner',
  blocked:
    owner.memberCount > 0 ? (
      <p>
        {owner.name} still has {owner.memberCount} {owner.memberCount === 1 ? 'member' : 'members'} at <strong>{owner.gymName}</strong>. Move or delete them first:{' '}
        <AppLink to={`${paths.gymMembers}?${new URLSearchParams({ ownerId: String(owner.id) }).toString()}`}>see their members</AppLink>.
      </p>
    ) : undefined,
  body: (
    <p>
      {owner.name} of <strong>{owner.gymName}</strong> will be removed. This cannot be undone.
    </p>
  ),
  remove: () => deleteOwner({ params: { id: owner.id } }),
  deleted: `${owner.name} was deleted.`,
});
