import type { GymMember, GymOwner } from '@contracts/gym.contract';
import type { DeleteOptions } from '@/components/confirm-delete';
import { deleteMember, deleteOwner } from '@/features/gym/gym.api';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';

/** Deleting a member, from the list or their own page (which adds where to go next). */
export const memberDelete = (member: GymMember): DeleteOptions => ({
  title: `Delete ${member.name}?`,
  confirmLabel: 'Delete member',
  body: (
    <p>
      {member.name} ({member.email}) will be removed from <strong>{member.gymName}</strong>. Their Kisi account is not touched.
    </p>
  ),
  remove: () => deleteMember({ params: { id: member.id } }),
  deleted: `${member.name} was deleted.`,
});

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
