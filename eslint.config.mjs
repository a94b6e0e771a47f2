// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const noVscode = {
  'no-restricted-imports': [
    'error',
    {
      paths: [
        {
          name: 'vscode',
          message: 'Only src/vscode/** may import vscode: core, protocol and webview talk through ports.',
        },
      ],
    },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', '.tools/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      curly: ['error', 'all'],
      eqeqeq: ['error', 'always'],
      'default-case-last': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  { files: ['src/core/**', 'src/protocol/**', 'webview/**'], rules: noVscode },
  // The chat page's HTML is built without vscode so the webview tests serve exactly it.
  { files: ['src/vscode/chatHtml.ts'], rules: noVscode },
  {
    // Chat orchestration is editor-independent: it reaches VS Code only through the core's ports.
    files: ['src/chat/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: noVscode['no-restricted-imports'][1].paths,
          patterns: [
            { group: ['**/vscode/**', '../vscode'], message: 'src/chat must not depend on src/vscode.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/protocol/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod(/mini)?$)(?!\\.)',
              message: 'src/protocol imports only zod (both bundles use it).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', 'scripts/**/*.js'],
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
      },
    },
  },
);
