import { gymApi } from '@contracts/gym.contract';
import { write } from '@/lib/endpoint-write';

/**
 * The CSV import's two calls (decision 0106). The preview writes nothing (a POST only because it
 * carries the file); the confirm adds members, so the lists, the owners' member counts and the
 * count of members waiting for their doors are read again.
 */
export const previewMemberImport = write(gymApi.previewMemberImport);
export const confirmMemberImport = write(gymApi.confirmMemberImport, { stale: [gymApi.listMembers, gymApi.listOwners, gymApi.getOwner, gymApi.doorSyncStatus] });
