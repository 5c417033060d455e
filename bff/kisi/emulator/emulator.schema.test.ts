import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { declaredTables } from '../../test-support/declared-tables';
import { shapeOf, storedTables } from '../../test-support/store-tables';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database';
import { emulatorStoreBeside, openEmulatorDatabase } from './emulator.database';

/** As bff/db/schema.test.ts for the product: the emulator's `emulator.schema.ts` against what its own migrations make. */
let dir: string;
let target: TestDatabase;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-emulator-schema-'));
  target = await createTestDatabase(dir, 'emulator_schema');
});
afterAll(async () => {
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('declares exactly the tables and columns its migrations make in its own store, and which columns may be null', async () => {
  const store = await openEmulatorDatabase(emulatorStoreBeside(target.url));
  try {
    const stored = shapeOf(await storedTables(store));
    expect(Object.keys(stored)).toContain('kisi_emu_users');
    expect(stored).toEqual(shapeOf(declaredTables(path.join(process.cwd(), 'bff/kisi/emulator/emulator.schema.ts'), 'EmulatorTables')));
  } finally {
    await store.close();
  }
});
