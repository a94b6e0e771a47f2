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

/** `noVscode` plus one forbidden import pattern (a later `no-restricted-imports` replaces an earlier one). */
function noVscodeAnd(pattern) {
  return {
    'no-restricted-imports': [
      'error',
      { paths: noVscode['no-restricted-imports'][1].paths, patterns: [pattern] },
    ],
  };
}

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
  // The layers, in a line with nothing pointing back up: protocol ← core ← chat ← vscode ← extension.
  {
    // The ACP client knows nothing of the chat orchestration or the editor.
    files: ['src/core/**'],
    rules: noVscodeAnd({
      regex: '(^|/)(chat|vscode|extension|exports)(/|$)',
      message:
        'src/core must not depend on src/chat, src/vscode or the extension (it talks through its ports).',
    }),
  },
  {
    // Chat orchestration is editor-independent: it reaches VS Code only through the core's ports.
    files: ['src/chat/**'],
    rules: noVscodeAnd({
      regex: '(^|/)(vscode|extension|exports)(/|$)',
      message: 'src/chat must not depend on src/vscode or the extension.',
    }),
  },
  {
    // The adapters are built by the composition root, never the other way round.
    files: ['src/vscode/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(extension|exports)$',
              message: 'src/vscode must not depend on the extension entry point.',
            },
          ],
        },
      ],
    },
  },
  {
    // The chat page's HTML is built without vscode, so the webview tests serve exactly it.
    files: ['src/vscode/chatHtml.ts'],
    rules: noVscodeAnd({
      regex: '^\\.\\./(extension|exports)$',
      message: 'src/vscode must not depend on the extension entry point.',
    }),
  },
  {
    // The webview shares only the protocol with the host.
    files: ['webview/**'],
    rules: noVscodeAnd({
      regex: '^(\\.\\./)+src/(?!protocol(/|$))',
      message: 'webview/ imports only src/protocol from the host tree.',
    }),
  },
  {
    files: ['src/protocol/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod(/mini)?$)(?!\\./)',
              message: 'src/protocol imports only zod (both bundles use it) and its own files.',
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
