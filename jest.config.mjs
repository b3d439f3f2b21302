// Two projects run the same HTTP suite on SQLite and on PostgreSQL; pure tests run once (SQLite project).
const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript', importAttributes: true }, target: 'es2022', experimental: { keepImportAttributes: false } },
    module: { type: 'commonjs' },
  },
];
const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|mj|j)s$': swc },
  // marked is ESM-only; its UMD build loads as CommonJS under jest.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1', '^marked$': '<rootDir>/node_modules/marked/lib/marked.umd.js' },
};
/** @type {import('jest').Config} */
export default {
  globalSetup: './test/setup/global-setup.mjs',
  // testTimeout is a global option: inside `projects` jest ignores it and falls back to 5 s.
  testTimeout: 30000,
  reporters: ['default', 'summary'],
  projects: [
    {
      ...common,
      displayName: 'sqlite',
      setupFiles: ['./test/setup/sqlite.ts'],
      testMatch: ['<rootDir>/test/**/*.test.ts'],
    },
    {
      ...common,
      displayName: 'postgres',
      setupFiles: ['./test/setup/postgres.ts'],
      testMatch: ['<rootDir>/test/api/**/*.test.ts', '<rootDir>/test/cli/**/*.test.ts', '<rootDir>/test/client/**/*.test.ts'],
    },
  ],
};
