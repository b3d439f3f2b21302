// Lint: typescript-eslint's recommended rules, plus the layer boundaries of ARCHITECTURE.md
// (http -> handlers -> services -> {db, git, events, markup} -> domain; handlers -> convert).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const layer = (files, forbidden, why) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: forbidden.map((group) => ({ group: [group], message: why })) },
    ],
  },
});

export default tseslint.config(
  { ignores: ['dist/**', 'generated/**', 'node_modules/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['scripts/**/*.mjs', 'test/**/*.mjs', '*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', fetch: 'readonly', setTimeout: 'readonly', performance: 'readonly', Buffer: 'readonly', URLSearchParams: 'readonly' } },
  },
  layer(['src/handlers/**'], ['**/db/*', '**/git/*', 'express', 'kysely'], 'handlers call services and converters only'),
  layer(['src/services/**'], ['express', '**/http/*', '**/handlers/*', '**/generated/*'], 'services know nothing of HTTP or the generated description'),
  layer(['src/domain/**'], ['**/db/*', '**/services/*', '**/http/*', '**/handlers/*', '**/generated/*', 'express', 'kysely'], 'domain is plain types and rules'),
  layer(['src/db/**'], ['**/services/*', '**/http/*', '**/handlers/*', 'express'], 'the data layer sits below the services'),
  layer(['src/net/**'], ['**/db/*', '**/services/*', '**/http/*', '**/handlers/*', 'express'], 'outbound networking is a leaf module under the services'),
  layer(['src/convert/**'], ['**/db/*', '**/services/*', '**/http/*', 'express'], 'converters map domain objects to API shapes'),
);
