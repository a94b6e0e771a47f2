import type { HostMessage } from '../../../src/protocol';
import { CHAT_ID, message, modelOption, sessionState, snapshot, toolCall, turn } from './builders';

/** A transcript with a bit of everything, for screenshots and layout checks. */
export function richTranscript(): HostMessage[] {
  const oldFile = [
    "import { readFile } from 'node:fs/promises';",
    '',
    'export async function loadConfig(path: string) {',
    "  const text = await readFile(path, 'utf8');",
    '  return JSON.parse(text);',
    '}',
  ].join('\n');
  const newFile = [
    "import { readFile } from 'node:fs/promises';",
    "import { ConfigSchema, type Config } from './schema';",
    '',
    'export async function loadConfig(path: string): Promise<Config> {',
    "  const text = await readFile(path, 'utf8');",
    '  return ConfigSchema.parse(JSON.parse(text));',
    '}',
  ].join('\n');
  const answer = [
    '## What I found',
    '',
    '`loadConfig` trusts whatever is on disk. I will **validate** it with the existing schema:',
    '',
    '1. Parse the JSON',
    '2. Check it against `ConfigSchema`',
    '3. Return the typed result',
    '',
    '```ts',
    'const config = await loadConfig(path);',
    'console.log(config.port);',
    '```',
    '',
    'See [src/config.ts:4](src/config.ts:4) and the [zod docs](https://zod.dev).',
  ].join('\n');
  return [
    snapshot({
      entries: [
        message('user', 'e1', 'Why does the server crash on a bad config file? Fix it.', {
          attachments: [{ type: 'resource_link', uri: 'file:///work/app/src/config.ts', name: 'config.ts' }],
        }),
        message(
          'thought',
          'e2',
          'The stack trace points at `JSON.parse` output being used unchecked. There is a schema in `schema.ts`.',
        ),
        message('agent', 'e3', answer),
        toolCall('e4', {
          title: 'Edit src/config.ts',
          toolKind: 'edit',
          status: 'pending',
          locations: [{ path: '/work/app/src/config.ts', line: 4 }],
          content: [{ type: 'diff', path: '/work/app/src/config.ts', oldText: oldFile, newText: newFile }],
          permission: {
            key: 'perm-1',
            status: 'pending',
            options: [
              { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
              { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
              { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
            ],
          },
        }),
        toolCall('e5', {
          title: 'npm test -- --grep config',
          toolKind: 'execute',
          status: 'in_progress',
          content: [{ type: 'terminal', terminalId: 'term-1' }],
        }),
      ],
      turns: [turn('t1')],
      state: sessionState({
        title: 'Fix crash on invalid config',
        usage: { used: 1234, size: 200_000, cost: { amount: 0.01, currency: 'USD' } },
        modes: {
          currentModeId: 'code',
          available: [
            { id: 'ask', name: 'Ask' },
            { id: 'code', name: 'Code' },
          ],
        },
        configOptions: [modelOption()],
        commands: [
          { name: 'explain', description: 'Explain the selected code', inputHint: 'what to explain' },
        ],
        plan: [
          { content: 'Find where the config is read', priority: 'high', status: 'completed' },
          { content: 'Validate it with ConfigSchema', priority: 'medium', status: 'in_progress' },
          { content: 'Run the tests', priority: 'low', status: 'pending' },
        ],
      }),
    }),
    {
      type: 'terminal_output',
      terminal: {
        terminalId: 'term-1',
        output:
          '> app@1.0.0 test\n> mocha --grep config\n\n  loadConfig\n    ✔ parses a valid file\n    ✔ rejects an invalid file\n',
        truncated: false,
      },
    },
  ];
}

export { CHAT_ID };
