import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import type * as Connection from '../../src/core/connection/agentClient';
import {
  AgentError,
  AgentExitedError,
  classifyError,
  errorDetails,
  NotSupportedError,
} from '../../src/core/connection/errors';
import { ClientRefusalError, type FileSystemPort } from '../../src/core/ports';
import { NodeFileSystem } from '../../src/core/node/nodeFileSystem';
import { ElicitationBroker } from '../../src/features/elicitation/core/elicitationBroker';
import { compileAgentPattern } from '../../src/features/elicitation/core/agentPattern';
import { entriesOf, RecordingLogger, startTestAgent, text, type TestAgent } from './support/testAgent';
import { NodeTerminals } from '../../src/features/terminals/core/nodeTerminals';
import { PolicyPermissions } from '../../src/features/permissions/core/policyPermissions';

/** The text of the last agent message of the session. */
function reply(entries: unknown[]): string {
  const last = entries.at(-1) as { kind: string; text: string };
  assert.equal(last.kind, 'agent');
  return last.text;
}

/**
 * The agent connection is a bundle of its own (`dist/connection.js`, built from src/core/connection/agentClient.ts)
 * with its own copy of the errors and ports it shares with the chat. Here it is built as esbuild.mjs
 * builds it (minified) and driven from this test's copy of the chat's modules: errors it makes must
 * classify as what they are here, and errors the chat's ports throw must reach the agent as their codes.
 */
describe('the agent connection as a bundle of its own', function () {
  this.timeout(60_000);
  let dir: string;
  let connection: typeof Connection;

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-connection-bundle-'));
    const outfile = path.join(dir, 'connection.js');
    await esbuild.build({
      entryPoints: ['src/core/connection/agentClient.ts'],
      bundle: true,
      minify: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      outfile,
      logLevel: 'silent',
    });
    connection = createRequire(__filename)(outfile) as typeof Connection;
    assert.notEqual(connection.AgentClient, (await import('../../src/core/connection/agentClient')).AgentClient);
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("rejects a start with an AgentExitedError the chat's copy recognises", async () => {
    const ports = {
      fileSystem: new NodeFileSystem(),
      permissions: new PolicyPermissions(() => undefined),
      terminals: new NodeTerminals(dir),
      logger: new RecordingLogger(),
    };
    const failure: unknown = await connection.AgentClient.start({
      command: { command: process.execPath, args: ['-e', 'process.exit(3)'], cwd: dir, env: {} },
      ports,
    }).then(
      () => assert.fail('the start should fail'),
      (error: unknown) => error,
    );
    assert.notEqual(Object.getPrototypeOf(failure), AgentExitedError.prototype, 'made by the other copy');
    assert.ok(failure instanceof AgentExitedError);
    assert.ok(failure instanceof AgentError);
    assert.ok(!(failure instanceof NotSupportedError));
    assert.equal(failure.exit?.code, 3);
    assert.equal(classifyError(failure), failure, 'classified as it is, not wrapped as internal');
    assert.equal(errorDetails(failure).kind, 'process_exited');
    await ports.terminals.dispose();
  });

  describe("the chat's ports answering the agent through the bundle", () => {
    let agent: TestAgent | undefined;
    const broker = new ElicitationBroker(new RecordingLogger(), compileAgentPattern);

    const start = async (fileSystem?: FileSystemPort): Promise<TestAgent> =>
      (agent = await startTestAgent({
        ...(fileSystem ? { fileSystem } : {}),
        elicitation: broker,
        start: (options) => connection.AgentClient.start(options),
      }));

    afterEach(async () => {
      await agent?.stop();
      agent = undefined;
    });

    after(() => broker.dispose());

    it('a missing file is resource-not-found (-32002), not an internal error', async () => {
      const { client, dir: cwd } = await start();
      const session = await client.newSession({ cwd });
      await session.prompt([text(`fs read ${path.join(cwd, 'missing.txt')}`)]);
      assert.match(reply(entriesOf(session)), /^read error -32002: /);
    });

    it("a refusal keeps its code (-32001) and reason", async () => {
      const refusing: FileSystemPort = {
        readTextFile: () => Promise.reject(new ClientRefusalError('The user said no.', 'user_declined')),
        writeTextFile: () => Promise.reject(new Error('not used')),
      };
      const { client, dir: cwd } = await start(refusing);
      const session = await client.newSession({ cwd });
      await session.prompt([text(`fs read ${path.join(cwd, 'notes.txt')}`)]);
      assert.match(reply(entriesOf(session)), /^read error -32001: The user said no\. The user declined this/);
    });

    it('an elicitation the chat cannot show is invalid params (-32602) saying why', async () => {
      const { client, dir: cwd } = await start();
      const session = await client.newSession({ cwd });
      await session.prompt([text('elicit url javascript:alert(1)')]);
      assert.match(reply(entriesOf(session)), /^elicitation error -32602: .*Elicitation refused: only http/);
    });
  });
});
