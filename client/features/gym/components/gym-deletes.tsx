import type { GymMember, GymOwner } from '@contracts/gym.contract';
import type { DeleteOptions } from '@/components/confirm-delete';
import { deleteMember, deleteOwner } from '@/features/gym/gym.api';

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

/** Deleting an owner, from the list or their own page; the server refuses while the gym has members. */
export const ownerDelete = (owner: GymOwner): DeleteOptions => ({
  title: `Delete ${owner.name}?`,
  confirmLabel: 'Delete owner',
  body: (
    <p>
      {owner.name} of <strong>{owner.gymName}</strong> will be removed. This cannot be undone.
    </p>
  ),
  remove: () => deleteOwner({ params: { id: owner.id } }),
  deleted: `${owner.name} was deleted.`,
});
