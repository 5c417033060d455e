import { fillLastVisits, fillMemberVisits } from '../../db/member-visits';
import type { Seeder } from '../../db/seed';
import type { Membership } from '../../contracts/gym.contract';

const FIRST = ['Ava', 'Ben', 'Chloe', 'Dev', 'Elena', 'Farid', 'Grace', 'Hugo', 'Imani', 'Jonas', 'Kira', 'Liam', 'Maya', 'Noah', 'Olga', 'Priya', 'Quinn', 'Rosa', 'Sami', 'Tara', 'Uma', 'Victor', 'Wen', 'Yusuf', 'Zoe'];
const LAST = ['Alvarez', 'Becker', 'Chen', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Haddad', 'Ito', 'Jensen', 'Kowalski', 'Lopez', 'Murphy', 'Nakamura', 'Okafor', 'Patel', 'Rossi', 'Silva'];

const OWNERS = [
  { name: 'Marta Kowalski', email: 'marta@ironharbour.example', phone: '+1 415 555 0101', gymName: 'Iron Harbour' },
  { name: 'Theo Brandt', email: 'theo@northsidestrength.example', phone: '+1 415 555 0144', gymName: 'Northside Strength' },
  { name: 'Aisha Rahman', email: 'aisha@peakboulder.example', phone: null, gymName: 'Peak Boulder Club' },
  { name: 'Jorge Medina', email: 'jorge@coreandcardio.example', phone: '+1 415 555 0190', gymName: 'Core & Cardio' },
  { name: 'Lena Vogel', email: 'lena@studio24.example', phone: '+1 415 555 0117', gymName: 'Studio 24' },
  { name: 'Kwame Mensah', email: 'kwame@riverrowing.example', phone: null, gymName: 'River Rowing Loft' },
];

/** Every eighth member paused and every fifteenth cancelled, so filters and door access have something to show. */
const membershipFor = (i: number): Membership => (i % 15 === 14 ? 'cancelled' : i % 8 === 7 ? 'paused' : 'active');

const DAY_MS = 86_400_000;
/**
 * When a demo member joined: between 35 days and a little over a year ago, spread by their place in
 * the list, so every member joined before the demo's door history starts (four weeks back) and a
 * member's page never says they joined after their first visit.
 */
const joinedDaysAgo = (i: number) => 35 + ((i * 37) % 370);
/** The owners signed up before any of their members joined. */
const OWNERS_DAYS_AGO = 420;

export interface GymSeedPerson {
  name: string;
  email: string;
}

/**
 * Owners and a few hundred members. `people` (the Kisi organisation's users) come first, so the demo's
 * unlock history and access links line up with real members.
 */
export function gymSeeder(people: GymSeedPerson[] = [], generated = 300): Seeder {
  return {
    name: 'gym',
    async run(db) {
      const now = Date.now();
      const daysAgo = (days: number) => new Date(now - days * DAY_MS).toISOString();
      const ownerIds: number[] = [];
      for (const owner of OWNERS) {
        const row = await db
          .insertInto('gym_owners')
          .values({ name: owner.name, email: owner.email, phone: owner.phone, gym_name: owner.gymName, created_at: daysAgo(OWNERS_DAYS_AGO) })
          .returning('id')
          .executeTakeFirstOrThrow();
        ownerIds.push(row.id);
      }
      const byEmail = new Map<string, GymSeedPerson>();
      const add = (name: string, email: string) => byEmail.has(email.toLowerCase()) || byEmail.set(email.toLowerCase(), { name, email: email.toLowerCase() });
      for (const person of people) add(person.name, person.email);
      const wanted = byEmail.size + generated;
      for (let i = 0; byEmail.size < wanted; i++) {
        const first = FIRST[i % FIRST.length] ?? 'Alex';
        const last = LAST[Math.floor(i / FIRST.length) % LAST.length] ?? 'Smith';
        add(`${first} ${last}`, `${first}.${last}${i >= FIRST.length * LAST.length ? i : ''}@members.example`);
      }
      const members = [...byEmail.values()];
      const rows = members.map((m, i) => {
        const joined = daysAgo(joinedDaysAgo(i));
        return {
          email: m.email,
          name: m.name,
          owner_id: ownerIds[i % ownerIds.length] ?? 1,
          // The Kisi organisation's people are active members, so their doors open in the demo.
          membership: i < wanted - generated ? ('active' as const) : membershipFor(i),
          created_at: joined,
          updated_at: joined,
        };
      });
      for (let i = 0; i < rows.length; i += 200) await db.insertInto('gym_users').values(rows.slice(i, i + 200)).execute();
      // The demo's door history may be stored already: the members who came start with their last visit.
      await fillLastVisits(db);
      await fillMemberVisits(db);
    },
  };
}
