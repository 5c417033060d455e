import { sql } from 'kysely';
import type { Membership } from '../../contracts/gym.contract';
import type { Db } from '../../db/database';

/** Emails a statement asks for at most (both engines' bound-parameter limits are far above it). */
const CHUNK = 500;

const chunks = <T>(items: readonly T[]): T[][] => Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) => items.slice(i * CHUNK, (i + 1) * CHUNK));

export type ImportOwner = { id: number; name: string; email: string };
export type ImportMember = { id: number; email: string; name: string; ownerId: number; ownerEmail: string; membership: Membership };

/** What a CSV import looks up: the owners its rows name and the members its emails are already, by email. */
export function memberImportRepository(db: Db) {
  return {
    /** Owners by email, matched whatever its case (keyed by the lower-cased email). */
    async ownersByEmail(emails: readonly string[]): Promise<Map<string, ImportOwner>> {
      const found = new Map<string, ImportOwner>();
      for (const part of chunks(emails)) {
        const rows = await db
          .selectFrom('gym_owners')
          .select(['id', 'name', 'email'])
          .where(sql<string>`lower(email)`, 'in', part)
          .execute();
        for (const row of rows) found.set(row.email.toLowerCase(), row);
      }
      return found;
    },

    /** Members by email (stored lower-cased, as the member form and the import write them), with their owner's email. */
    async membersByEmail(emails: readonly string[]): Promise<Map<string, ImportMember>> {
      const found = new Map<string, ImportMember>();
      for (const part of chunks(emails)) {
        const rows = await db
          .selectFrom('gym_users as u')
          .innerJoin('gym_owners as o', 'o.id', 'u.owner_id')
          .select(['u.id', 'u.email', 'u.name', 'u.owner_id as ownerId', 'o.email as ownerEmail', 'u.membership'])
          .where('u.email', 'in', part)
          .execute();
        for (const row of rows) found.set(row.email, row);
      }
      return found;
    },
  };
}
export type MemberImportRepository = ReturnType<typeof memberImportRepository>;
