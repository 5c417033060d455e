/**
 * Once the Kisi emulator's tables (`kisi_emu_*`), in the product's database. The emulator stands in
 * for an outside service and now keeps its own store (bff/kisi/emulator/emulator.database.ts), so
 * this creates nothing. Safe to empty: Kysely's migrator records a migration by name and never
 * compares what it did, so a database that ran the old version counts it as run as before, and
 * 012-kisi-emulator-moved-out drops the tables it left there.
 */
export async function up(): Promise<void> {}
