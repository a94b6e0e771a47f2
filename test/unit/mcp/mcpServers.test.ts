import { strict as assert } from 'node:assert';
import type * as acp from '@agentclientprotocol/sdk';
import { parseMcpServerSettings, resolveMcpServers } from '../../../src/features/mcp/chat/mcpSettings';
import { parseJsonc, vscodeMcpServers } from '../../../src/features/mcp/chat/vscodeMcpConfig';
import type { AgentSession } from '../../../src/core/session/agentSession';
import { text, useTestAgents } from '../support/testAgent';

/** What the test agent's `mcp` scenario says it received with the session. */
async function serversReceived(session: AgentSession): Promise<unknown> {
  await session.prompt([text('mcp')]);
  const entries = session.thread.snapshot().entries;
  const last = entries[entries.length - 1];
  assert.ok(last && last.kind === 'agent', 'the agent answered');
  const match = /^MCP servers: (.*)$/s.exec(last.text);
  assert.ok(match, `unexpected answer ${last.text}`);
  return JSON.parse(match[1] as string);
}

const stdio: acp.McpServer = {
  name: 'files',
  command: 'mcp-files',
  args: ['--root', '.'],
  env: [{ name: 'TOKEN', value: 's3cret' }],
};
const http: acp.McpServer = {
  type: 'http',
  name: 'web',
  url: 'http://127.0.0.1:9/mcp',
  headers: [{ name: 'Authorization', value: 'Bearer x' }],
};
const sse: acp.McpServer = { type: 'sse', name: 'events', url: 'http://127.0.0.1:9/sse', headers: [] };

describe('MCP servers for agent sessions', () => {
  describe('settings', () => {
    it('parses the ACP shapes entry by entry and reports the bad ones', () => {
      const parsed = parseMcpServerSettings([
        { name: 'files', command: 'mcp-files', env: [{ name: 'A', value: '1' }] },
        { type: 'http', name: 'web', url: 'http://127.0.0.1:9/mcp' },
        { type: 'sse', name: 'nourl' },
        { name: '', command: 'x' },
        'nonsense',
      ]);
      assert.deepEqual(parsed.servers, [
        { name: 'files', command: 'mcp-files', args: [], env: [{ name: 'A', value: '1' }] },
        { type: 'http', name: 'web', url: 'http://127.0.0.1:9/mcp', headers: [] },
      ]);
      assert.equal(parsed.errors.length, 3);
      assert.match(parsed.errors[0] as string, /^acpAgents\.mcpServers\[2\]/);
      assert.match(parsed.errors[1] as string, /^acpAgents\.mcpServers\[3\]/);
      assert.match(parsed.errors[2] as string, /^acpAgents\.mcpServers\[4\]/);
      assert.deepEqual(parseMcpServerSettings({ name: 'x' }).errors, [
        'acpAgents.mcpServers must be a list of servers.',
      ]);
      assert.deepEqual(parseMcpServerSettings(undefined), { servers: [], errors: [] });
    });

    it('fills ${secret:NAME} in env and headers, and leaves out a server whose secret is not set', async () => {
      const { servers } = parseMcpServerSettings([
        { name: 'files', command: 'mcp-files', env: [{ name: 'TOKEN', value: 'tok-${secret:FILES}-end' }] },
        {
          type: 'http',
          name: 'web',
          url: 'http://127.0.0.1:9/mcp',
          headers: [{ name: 'Authorization', value: 'Bearer ${secret: WEB }' }],
        },
        { name: 'gone', command: 'x', env: [{ name: 'K', value: '${secret:MISSING}' }] },
      ]);
      const asked: string[] = [];
      const secrets: Record<string, string> = { FILES: 'f1', WEB: 'w2' };
      const resolved = await resolveMcpServers(servers, async (name) => {
        asked.push(name);
        return secrets[name];
      });
      assert.deepEqual(resolved.servers, [
        { name: 'files', command: 'mcp-files', args: [], env: [{ name: 'TOKEN', value: 'tok-f1-end' }] },
        {
          type: 'http',
          name: 'web',
          url: 'http://127.0.0.1:9/mcp',
          headers: [{ name: 'Authorization', value: 'Bearer w2' }],
        },
      ]);
      assert.deepEqual(asked, ['FILES', 'WEB', 'MISSING']);
      assert.equal(resolved.problems.length, 1);
      assert.match(resolved.problems[0] as string, /"gone" skipped: the secret "MISSING" is not set/);
      // The settings themselves keep the reference, never the value.
      assert.equal((servers[0] as { env: { value: string }[] }).env[0]?.value, 'tok-${secret:FILES}-end');
    });
  });

  describe("VS Code's own MCP configuration (.vscode/mcp.json, mcp.servers)", () => {
    it('reads JSON with comments and trailing commas, leaving strings alone', () => {
      const text = `{
        // the servers
        "servers": {
          "a": { "command": "x", "args": ["// not a comment", "/* nor this */", "a, }"], }, /* done */
        },
      }`;
      assert.deepEqual(parseJsonc(text), {
        servers: { a: { command: 'x', args: ['// not a comment', '/* nor this */', 'a, }'] } },
      });
      assert.throws(() => parseJsonc('{ "a": '), /ValueExpected|CloseBraceExpected/);
      assert.throws(() => parseJsonc('{ "a": 1 } 2'), /EndOfFileExpected/);
      assert.deepEqual(parseJsonc('[1, 2,]'), [1, 2]);
      assert.throws(() => parseJsonc('[1,, 2]'), /ValueExpected/);
    });

    it('turns its servers into ours, filling variables and mapping ${input:ID} to the secret ID', () => {
      const result = vscodeMcpServers(
        {
          inputs: [{ id: 'gh', type: 'promptString', password: true }],
          servers: {
            github: {
              type: 'http',
              url: 'https://example.test/mcp',
              headers: { Authorization: 'Bearer ${input:gh}' },
            },
            local: {
              command: 'node',
              args: ['${workspaceFolder}/server.js'],
              env: { HOME_DIR: '${env:HOME_FOR_TEST}', DROPPED: null },
            },
            odd: { command: 'x', args: ['${command:pickFile}'] },
            bad: { type: 'http' },
          },
        },
        '.vscode/mcp.json',
        { workspaceFolder: '/w', env: { HOME_FOR_TEST: '/home/t' } },
      );
      assert.deepEqual(result.servers, [
        {
          type: 'http',
          name: 'github',
          url: 'https://example.test/mcp',
          headers: [{ name: 'Authorization', value: 'Bearer ${secret:gh}' }],
        },
        {
          name: 'local',
          command: 'node',
          args: ['/w/server.js'],
          env: [{ name: 'HOME_DIR', value: '/home/t' }],
        },
      ]);
      assert.equal(result.skipped.length, 2);
      assert.match(result.skipped[0] as string, /"odd" skipped: it uses \$\{command:pickFile\}/);
      assert.match(result.skipped[1] as string, /^\.vscode\/mcp\.json: MCP server "bad" skipped/);
      assert.deepEqual(vscodeMcpServers({ servers: 3 }, 'x', { env: {} }).servers, []);
    });
  });

  describe('reaching the agent (real test agent over stdio)', () => {
    const agents = useTestAgents();

    it('sends stdio and advertised http servers to session/new, skips sse and says so in the log', async () => {
      let reads = 0;
      const agent = await agents.start({
        client: {
          mcpServers: async () => {
            reads++;
            return [stdio, http, sse, { ...stdio, command: 'duplicate' }];
          },
        },
      });
      const session = await agent.session();
      assert.deepEqual(await serversReceived(session), [stdio, http]);
      assert.equal(reads, 1, 'read once per session start');
      const warnings = agent.logger.messages('warn');
      assert.ok(
        warnings.includes('MCP server "events" skipped: Demo agent (offline) does not take sse MCP servers.'),
      );
      assert.ok(warnings.includes('MCP server "files" skipped: another server has the same name.'));
    });

    it('passes them to session/resume and session/load too, read again at that time', async () => {
      let generation = 0;
      const agent = await agents.start({
        client: { mcpServers: async () => [{ ...stdio, args: [`gen-${++generation}`] }] },
      });
      const created = await agent.session();
      const sessionId = created.id;
      const resumed = await agent.client.resumeSession(sessionId, { cwd: agent.dir });
      assert.deepEqual(await serversReceived(resumed), [{ ...stdio, args: ['gen-2'] }]);
      const loaded = await agent.client.loadSession(sessionId, { cwd: agent.dir });
      assert.deepEqual(await serversReceived(loaded), [{ ...stdio, args: ['gen-3'] }]);
    });

    it('gives an agent without mcpCapabilities only the stdio servers', async () => {
      const agent = await agents.start({
        env: { TEST_AGENT_MINIMAL: '1' },
        client: { mcpServers: async () => [http, stdio, sse] },
      });
      const session = await agent.session();
      assert.deepEqual(await serversReceived(session), [stdio]);
      assert.equal(agent.logger.messages('warn').filter((line) => line.includes('does not take')).length, 2);
    });

    it('starts the session without servers when reading them fails, and logs why', async () => {
      const agent = await agents.start({
        client: {
          mcpServers: async () => {
            throw new Error('settings unreadable');
          },
        },
      });
      const session = await agent.session();
      assert.deepEqual(await serversReceived(session), []);
      assert.ok(
        agent.logger.messages('warn').includes('No MCP servers for this session: settings unreadable'),
      );
    });
  });
});
