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
          message:
            'Only vscode parts (src/vscode, src/features/*/vscode) and the composition roots import vscode.',
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

/** A feature importing another feature: two folders up into a sibling, or through `features/`. */
const otherFeature = {
  regex: '^(\\.\\./\\.\\./(?!\\.\\.)|(\\.\\./)+features/)',
  message: 'A feature must not import another feature: move what both need into the base layers.',
};

/** A base part importing a feature: the base knows only the contribution point (src/chat/chatContribution.ts). */
const anyFeature = {
  regex: '(^|/)features(/|$)',
  message:
    'The base (src/protocol, core, chat, vscode) must not import a feature: a feature plugs in through its contribution (src/chat/chatContribution.ts), wired by the composition root.',
};

/**
 * The rules of one layer: for the base folder `src/<layer>` and every feature's `<layer>/` part (a later
 * `no-restricted-imports` replaces an earlier one, so each part gets all its patterns in one rule).
 */
function layerRules(layer, forbidVscode, pattern) {
  const rule = (patterns) =>
    forbidVscode
      ? {
          'no-restricted-imports': ['error', { paths: noVscode['no-restricted-imports'][1].paths, patterns }],
        }
      : { 'no-restricted-imports': ['error', { patterns }] };
  return [
    { files: [`src/${layer}/**`], rules: rule([pattern, anyFeature]) },
    { files: [`src/features/*/${layer}/**`], rules: rule([pattern, otherFeature]) },
  ];
}

/** The composition roots: no layer imports one. */
const ROOTS = 'extension|exports|chatHost|lazyChatHost|chatBase|chatFeatures';

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
  // A feature (src/features/<name>/) has parts named like the layers: its core/, chat/ and vscode/ follow
  // the same arrows, and a feature builds on the base layers, never on another feature.
  ...layerRules('core', true, {
    regex: `(^|/)(chat|vscode|${ROOTS})(/|$)`,
    message:
      'A core part must not depend on a chat or vscode part or the extension (it talks through its ports).',
  }),
  ...layerRules('chat', true, {
    regex: `(^|/)(vscode|${ROOTS})(/|$)`,
    message: 'A chat part must not depend on a vscode part or the extension.',
  }),
  // The adapters are built by the composition roots (extension, chatHost, lazyChatHost), never the other way.
  ...layerRules('vscode', false, {
    regex: `(^|/)(${ROOTS})$`,
    message: 'A vscode part must not depend on the composition roots (extension, chatHost, chatFeatures, …).',
  }),
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
