// The system tier's tests start the BFF whole (migrations, seeding, the emulator's store) or as
// processes: on a busy 2-core machine, on PostgreSQL, one start alone can pass Jest's 5 s default.
jest.setTimeout(30_000);
