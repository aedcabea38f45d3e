import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: ['dist/', 'node_modules/', 'examples/**/cdk.out/', 'coverage/', 'generated/', '.cdkd-sandbox*/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { globals: { ...globals.node } } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/sandbox/**', 'src/cli/**'],
    rules: {
      // The engine must never reach the local sandbox: it is a separate product surface.
      'no-restricted-imports': ['error', { patterns: ['**/sandbox/**', '**/sandbox'] }],
    },
  },
);
