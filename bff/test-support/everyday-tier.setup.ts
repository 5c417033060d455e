// The everyday tier's limit a test or hook takes. Its tests wait for events, not time, and each takes
// well under a second alone; with two runs side by side and more on a busy 2-core machine, one that
// starts the Kisi emulator or builds an app in a hook can take several times that. Jest's 5 s default
// failed such tests; a test that hangs still fails, at 20 s.
jest.setTimeout(20_000);
