import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist', 'build', 'node_modules', 'data', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests, and the development tools that start servers for them and for the benchmarks, read
    // loosely typed JSON answers.
    files: ['tests/**', 'server/dev/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The test files of a worker share its loaded modules (vite.config.ts): a module replaced for one
    // file would stay replaced, or never be, for the others.
    files: ['tests/**'],
    rules: {
      'no-restricted-properties': ['error',
        ...['mock', 'doMock', 'unmock', 'doUnmock'].map((property) => ({
          object: 'vi', property, message: 'Test files share their modules: spy on what the code looks up when it runs (vi.spyOn), and restore it.',
        }))],
    },
  },
  {
    // A browser test opens another page through its `pageOfItsOwn` fixture (tests/e2e/fixtures.ts),
    // which closes it as the test ends, passed or failed: a page left open goes on through later tests.
    files: ['tests/e2e/**'],
    ignores: ['tests/e2e/fixtures.ts'],
    rules: {
      'no-restricted-syntax': ['error',
        ...["MemberExpression[property.name='newContext']", "MemberExpression[object.name='browser'][property.name='newPage']", "CallExpression[callee.property.name='browser']"].map((selector) => ({
          selector, message: 'Open another page with the pageOfItsOwn fixture (tests/e2e/fixtures.ts): it is closed with the test.',
        })),
        {
          selector: "ImportDeclaration[source.value='@playwright/test'] > ImportSpecifier[imported.name='test']",
          message: "Take `test` from './fixtures': it holds the fixtures every browser test may use.",
        }],
    },
  },
);
