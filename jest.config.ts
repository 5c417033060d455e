import type { Config } from 'jest';

// ts-jest compiles to CommonJS for Jest; the app itself runs as ESM (tsx, Vite).
const tsJest: Config['transform'] = {
  '^.+\\.tsx?$': ['ts-jest', { tsconfig: { module: 'commonjs', moduleResolution: 'node', jsx: 'react-jsx', isolatedModules: true } }],
};

/**
 * msw 2 (from 2.11) loads a few packages that ship only as ES modules; Jest runs the client tests as
 * CommonJS (its require(esm) needs --experimental-vm-modules), so those packages are compiled too.
 */
const esmOnly = ['rettime', 'until-async', '@open-draft/deferred-promise'].join('|');

/**
 * `npm run test:postgres` runs both BFF tiers in one pass, and the system tier's fuzz run begins with the
 * everyday tier's 12 requests per endpoint (the same seeds): that pass sets FULL_FUZZ_ONLY and the everyday
 * copy is left out. It also sets FUZZ_RUNS=30: the first 30 of the 60 the SQLite system tier sends.
 */
const everydayIgnores = ['\\.system\\.test\\.ts$', ...(process.env.FULL_FUZZ_ONLY === '1' ? ['/endpoints\\.fuzz\\.test\\.ts$'] : [])];

const config: Config = {
  // A worker per core: Jest's default leaves one core to its own process, which only waits.
  maxWorkers: '100%',
  projects: [
    {
      displayName: 'bff',
      testEnvironment: 'node',
      roots: ['<rootDir>/bff'],
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: everydayIgnores,
      setupFilesAfterEnv: ['<rootDir>/bff/test-support/everyday-tier.setup.ts'],
      transform: tsJest,
    },
    // The system tier (`npm run test:system`): tests that start the BFF whole (first starts, restarts,
    // start failures, a SIGKILL mid-write, two instances on one PostgreSQL) and the full-size fuzz run.
    {
      displayName: 'system',
      testEnvironment: 'node',
      roots: ['<rootDir>/bff'],
      testMatch: ['**/*.system.test.ts', '**/endpoints.fuzz.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/bff/test-support/system-tier.setup.ts'],
      globals: { FUZZ_RUNS: 60 },
      transform: tsJest,
    },
    {
      displayName: 'client',
      testEnvironment: 'jest-fixed-jsdom',
      roots: ['<rootDir>/client'],
      testMatch: ['**/*.test.tsx', '**/*.test.ts'],
      transform: {
        ...tsJest,
        [`/node_modules/(${esmOnly})/.+\\.m?js$`]: ['ts-jest', { tsconfig: { module: 'commonjs', moduleResolution: 'node', allowJs: true, isolatedModules: true } }],
      },
      transformIgnorePatterns: [`/node_modules/(?!(${esmOnly})/)`],
      setupFilesAfterEnv: ['<rootDir>/client/test-support/test-setup.ts'],
      moduleNameMapper: {
        '\\.(css|png|svg|jpg|webp)$': '<rootDir>/client/test-support/test-asset-stub.ts',
        '^@/(.*)$': '<rootDir>/client/$1',
        '^@contracts/(.*)$': '<rootDir>/bff/contracts/$1',
        '^@pages/(.*)$': '<rootDir>/pages/$1',
      },
    },
  ],
};

export default config;
