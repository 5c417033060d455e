import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../db/database';
import { sharedCounters } from '../../db/shared-limits';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database';
import { DEFAULT_LOGIN_LIMITS, loginThrottle } from './login-throttle';

/** The waits a guesser is given, on a clock the test moves and with the sleeps recorded instead of slept. */
let dir: string;
let target: TestDatabase;
let database: Database;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-throttle-'));
  target = await createTestDatabase(dir, 'throttle');
  database = await openDatabase(target.url);
});
afterAll(async () => {
  await database.close();
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => database.db.deleteFrom('rate_limit_counters').execute());

function throttleOnClock() {
  const clock = { now: 1_000_000 };
  const waits: number[] = [];
  const throttle = loginThrottle(sharedCounters(database.db, () => clock.now), DEFAULT_LOGIN_LIMITS, {
    now: () => clock.now,
    sleep: async (ms) => void waits.push(ms),
  });
  /** One attempt with a wrong password: the wait it was given before the check (0 for none). */
  const guess = async (address: string, email: string) => {
    const before = waits.length;
    await throttle.beforeAttempt(address, email);
    await throttle.failed(address, email);
    return waits.length > before ? waits[waits.length - 1]! : 0;
  };
  return { clock, throttle, guess };
}

it('gives one address five free guesses at one account, then waits of 1, 2, 4, 8 s… up to 10 s — on that account only', async () => {
  const { guess } = throttleOnClock();
  const given: number[] = [];
  for (let i = 0; i < 10; i++) given.push(await guess('198.51.100.7', 'ana@example.com'));
  expect(given).toEqual([0, 0, 0, 0, 0, 1000, 2000, 4000, 8000, 10_000]);
  expect(await guess('198.51.100.7', 'ben@example.com')).toBe(0);
  // Another address on that account waits only the account's own slow-down (its 10 failures from anywhere).
  expect(await guess('198.51.100.8', 'ana@example.com')).toBe(250);
});

it('stops an address at its 10th wrong password on an account, until the window ends — that address, on that account', async () => {
  const { clock, throttle } = throttleOnClock();
  const answers: Array<number | undefined> = [];
  for (let i = 0; i < 10; i++) {
    await throttle.beforeAttempt('198.51.100.7', 'ana@example.com');
    answers.push((await throttle.failed('198.51.100.7', 'ana@example.com'))?.status);
  }
  // Nine plain failures (the login answers 401), and the tenth says the address is stopped.
  expect(answers).toEqual([...Array(9).fill(undefined), 429]);
  // The next attempt is refused before its password is checked, a right one too.
  await expect(throttle.beforeAttempt('198.51.100.7', 'ana@example.com')).rejects.toMatchObject({
    status: 429,
    detail: 'Too many wrong passwords for this account from your network. Try again in 15 minutes.',
    options: { headers: { 'Retry-After': '900' } },
  });
  await expect(throttle.beforeAttempt('198.51.100.8', 'ana@example.com')).resolves.toBeUndefined();
  await expect(throttle.beforeAttempt('198.51.100.7', 'ben@example.com')).resolves.toBeUndefined();
  clock.now += DEFAULT_LOGIN_LIMITS.windowMs;
  await expect(throttle.beforeAttempt('198.51.100.7', 'ana@example.com')).resolves.toBeUndefined();
});

it('counts attempts sent all at once before their check: one address gets no more than its limit on an account', async () => {
  const { throttle } = throttleOnClock();
  const burst = await Promise.allSettled(Array.from({ length: 30 }, () => throttle.beforeAttempt('198.51.100.9', 'ana@example.com')));
  expect(burst.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(DEFAULT_LOGIN_LIMITS.failuresPerAddressAndAccount);
});

it('forgets an address’s failures on an account when it signs in, and all of them when the window ends', async () => {
  const { clock, throttle, guess } = throttleOnClock();
  for (let i = 0; i < 6; i++) await guess('198.51.100.7', 'ana@example.com');
  await throttle.beforeAttempt('198.51.100.7', 'ana@example.com');
  await throttle.succeeded('198.51.100.7', 'ana@example.com');
  expect(await guess('198.51.100.7', 'ana@example.com')).toBe(0);
  for (let i = 0; i < 6; i++) await guess('198.51.100.9', 'cy@example.com');
  clock.now += DEFAULT_LOGIN_LIMITS.windowMs;
  expect(await guess('198.51.100.9', 'cy@example.com')).toBe(0);
});

it('slows a whole address down past 50 failures across accounts, 0.2 s more per failure', async () => {
  const { guess } = throttleOnClock();
  for (let i = 0; i < 50; i++) expect(await guess('192.0.2.1', `staff${i}@example.com`)).toBe(0);
  expect(await guess('192.0.2.1', 'staff50@example.com')).toBe(200);
  expect(await guess('192.0.2.1', 'staff51@example.com')).toBe(400);
  expect(await guess('192.0.2.2', 'staff52@example.com')).toBe(0);
});

it('slows an account guessed at from many addresses down, 0.25 s more per failure up to 3 s, and never refuses it', async () => {
  const { throttle, guess } = throttleOnClock();
  const given: number[] = [];
  for (let i = 0; i < 40; i++) given.push(await guess(`203.0.113.${i}`, 'dee@example.com'));
  expect(given.slice(0, 10)).toEqual(Array(10).fill(0));
  expect(given.slice(10, 14)).toEqual([250, 500, 750, 1000]);
  expect(Math.max(...given)).toBe(3000);
  // The owner, at an address of their own, waits the account's slow-down and is checked.
  await expect(throttle.beforeAttempt('203.0.113.250', 'dee@example.com')).resolves.toBeUndefined();
  // Another account is not slowed.
  expect(await guess('203.0.113.251', 'eve@example.com')).toBe(0);
});

it('answers a wrong password from an address past 200 failures with a 429, without refusing the check', async () => {
  const { throttle, guess } = throttleOnClock();
  for (let i = 0; i < 200; i++) await guess('192.0.2.50', `guess${i}@example.com`);
  await throttle.beforeAttempt('192.0.2.50', 'desk@example.com');
  await expect(throttle.failed('192.0.2.50', 'desk@example.com')).resolves.toMatchObject({ status: 429 });
});
