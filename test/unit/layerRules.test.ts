import * as assert from 'node:assert/strict';
import { ESLint } from 'eslint';

/**
 * The layer rules of eslint.config.mjs, tried with deliberate bad imports: each probe is linted as if it
 * were a file at `path` (nothing is written), and must be refused by `no-restricted-imports` — or pass,
 * for the imports the architecture allows.
 */
describe('layer rules: the base never imports a feature, a feature never another, nothing points back up', () => {
  const eslint = new ESLint();

  before(async function () {
    // The first lint loads the config, typescript-eslint and its parser: seconds, more on a loaded machine.
    this.timeout(120_000);
    await eslint.lintText('export {};\n', { filePath: 'src/chat/probe.ts' });
  });

  async function restrictedImports(path: string, specifier: string): Promise<string[]> {
    const code = `import type { X } from '${specifier}';\nexport type Y = X;\n`;
    const [result] = await eslint.lintText(code, { filePath: path });
    return (result?.messages ?? [])
      .filter((message) => message.ruleId === 'no-restricted-imports')
      .map((message) => message.message);
  }

  const refused: [string, string, RegExp][] = [
    ['src/chat/probe.ts', '../features/checkpoints/chat/changeReview', /must not import a feature/],
    ['src/core/session/probe.ts', '../../features/registry/core/registryFormat', /must not import a feature/],
    ['src/vscode/probe.ts', '../features/editReview/vscode/vscodeEditReviews', /must not import a feature/],
    ['src/protocol/probe.ts', '../features/forks/chat/forkStart', /imports only zod/],
    ['src/features/forks/chat/probe.ts', '../../checkpoints/chat/changeReview', /another feature/],
    ['src/features/mentions/core/probe.ts', '../chat/fuzzyRank', /core part must not depend on a chat/],
    ['src/core/thread/probe.ts', '../../chat/conversation', /core part must not depend on a chat/],
    ['src/chat/probe.ts', '../vscode/settings', /chat part must not depend on a vscode/],
    ['src/vscode/probe.ts', '../chatFeatures', /composition roots/],
  ];
  for (const [path, specifier, why] of refused) {
    it(`refuses ${specifier} from ${path}`, async () => {
      const messages = await restrictedImports(path, specifier);
      assert.equal(messages.length, 1, `expected one refusal, got ${JSON.stringify(messages)}`);
      assert.match(messages[0] ?? '', why);
    });
  }

  const allowed: [string, string][] = [
    ['src/features/forks/chat/probe.ts', '../../../chat/chatContribution'],
    ['src/features/checkpoints/vscode/probe.ts', '../../../vscode/userPrompts'],
    ['src/chatFeatures.ts', './features/checkpoints/chat/changeReview'],
    ['src/chat/probe.ts', '../core/thread/thread'],
  ];
  for (const [path, specifier] of allowed) {
    it(`allows ${specifier} from ${path}`, async () => {
      assert.deepEqual(await restrictedImports(path, specifier), []);
    });
  }
});
