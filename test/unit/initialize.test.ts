import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { AgentClient } from '../../src/core/connection/agentClient';
import { AgentError, AgentExitedError } from '../../src/core/connection/errors';
import { NodeFileSystem } from '../../src/core/node/nodeFileSystem';
import { NodeTerminals } from '../../src/features/terminals/core/nodeTerminals';
import { chooseKind, PolicyPermissions } from '../../src/features/permissions/core/policyPermissions';
import { RecordingLogger, startTestAgent, TEST_AGENT_JS, text } from './support/testAgent';

function ports(logger = new RecordingLogger()) {
  return {
    fileSystem: new NodeFileSystem(),
    permissions: new PolicyPermissions(chooseKind('allow_once')),
    terminals: new NodeTerminals(),
    logger,
  };
}

/** What `AgentClient.start(options)` rejects with (undefined when it started). */
function startFailure(options: Parameters<typeof AgentClient.start>[0]): Promise<unknown> {
  return AgentClient.start(options).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('initialize', () => {
  it('keeps the agent info, capabilities and auth methods', async () => {
    const agent = await startTestAgent();
    try {
      const info = agent.client.info;
      assert.equal(info.name, 'Demo agent (offline)');
      assert.equal(info.protocolVersion, PROTOCOL_VERSION);
      assert.deepEqual(info.agentInfo, {
        name: 'acp-test-agent',
        title: 'Demo agent (offline)',
        version: '1.0.0',
      });
      assert.equal(info.capabilities.loadSession, true);
      assert.deepEqual(info.capabilities.promptCapabilities, { image: true, embeddedContext: true });
      assert.deepEqual(info.authMethods, []);
      assert.ok(agent.logger.messages('info').includes('Connected to Demo agent (offline) (ACP v1)'));
    } finally {
      await agent.stop();
    }
  });

  it('advertises what the client can show: notices always, terminal sign-in only with a terminal to run it in', async () => {
    const advertised = async (terminalAuth: boolean): Promise<Record<string, unknown>> => {
      const agent = await startTestAgent({ client: { terminalAuth } });
      try {
        const session = await agent.session();
        await session.prompt([text('capabilities')]);
        const said = session.thread
          .snapshot()
          .entries.flatMap((entry) => (entry.kind === 'agent' ? [entry.text] : []))
          .join('');
        return JSON.parse(said.replace(/^clientCapabilities: /, '')) as Record<string, unknown>;
      } finally {
        await agent.stop();
      }
    };
    const withTerminal = await advertised(true);
    assert.deepEqual(withTerminal.session, { notices: {} });
    assert.deepEqual(withTerminal.auth, { terminal: true });
    // The older convention, which Claude Code's adapter 0.16 (the registry's) reads instead.
    assert.deepEqual(withTerminal._meta, { 'terminal-auth': true });
    assert.deepEqual(withTerminal.fs, { readTextFile: true, writeTextFile: true });
    assert.equal(withTerminal.terminal, true);
    const without = await advertised(false);
    assert.notEqual(
      (without.auth as { terminal?: boolean } | undefined)?.terminal,
      true,
      'no terminal sign-in is claimed by a host that cannot run one',
    );
    assert.equal((without._meta as Record<string, unknown> | undefined)?.['terminal-auth'], undefined);
    assert.deepEqual(without.session, { notices: {} });
  });

  it('fails with a typed timeout when the agent does not answer, and stops the process', async () => {
    const failure = await startFailure({
      command: {
        command: process.execPath,
        args: [TEST_AGENT_JS],
        cwd: process.cwd(),
        env: { TEST_AGENT_INIT_DELAY_MS: '60000' },
      },
      ports: ports(),
      deadlines: { startMs: 300 },
    });
    assert.ok(failure instanceof AgentError);
    assert.equal(failure.kind, 'timeout');
    assert.equal(
      failure.message,
      `${path.basename(process.execPath)} did not answer initialize (starting up) within 0.3 s.`,
    );
  });

  it('reports a command that cannot be started, with the reason', async () => {
    const failure = await startFailure({
      command: { command: 'acp-agent-that-does-not-exist', args: ['--acp'], cwd: process.cwd() },
      ports: ports(),
    });
    assert.ok(failure instanceof AgentExitedError);
    assert.equal(failure.kind, 'process_exited');
    assert.match(failure.message, /failed to start: ENOENT/);
  });

  it('reports an agent that exits during initialize with its stderr', async () => {
    const failure = await startFailure({
      command: {
        command: process.execPath,
        args: ['-e', 'console.error("needs a sandbox tool"); process.exit(2)'],
        cwd: process.cwd(),
      },
      ports: ports(),
    });
    assert.ok(failure instanceof AgentExitedError);
    assert.equal(failure.message, 'The agent exited with code 2.');
    assert.deepEqual(failure.stderrTail, ['needs a sandbox tool']);
  });
});
