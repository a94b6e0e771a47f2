import { strict as assert } from 'node:assert';
import type { WorkspaceMcpServer } from '../../../src/features/mcp/chat/mcpConsent';
import {
  WorkspaceConsent,
  type ConsentAnswer,
  type WorkspaceDefinition,
} from '../../../src/chat/workspaceConsent';
import { askMcpConsent } from '../../../src/features/mcp/vscode/mcpConsentPrompt';
import type { UserPrompts } from '../../../src/vscode/userPrompts';
import { MemoryState } from '../support/memoryState';

describe('consent for workspace MCP servers', () => {
  const server = (command: string): WorkspaceMcpServer => ({
    name: 'evil',
    source: '.vscode/mcp.json',
    definition: { command, args: ['x'], env: { TOKEN: '${input:token}' } },
  });
  let asked: WorkspaceMcpServer[];
  let answer: ConsentAnswer;
  let memory: MemoryState;
  const ask = async (item: WorkspaceDefinition): Promise<ConsentAnswer> => {
    asked.push(item);
    return answer;
  };
  /** A new instance on the same memory each time: VS Code restarted between two questions. */
  const consent = () => {
    const store = new WorkspaceConsent(memory);
    return {
      allowed: (item: WorkspaceDefinition) => store.allowed(item, ask),
      revokeAll: () => store.revokeAll(),
    };
  };

  beforeEach(() => {
    asked = [];
    answer = 'allow';
    memory = new MemoryState();
  });

  it('asks once, remembers the answer across restarts, and asks again when the definition changes', async () => {
    assert.equal(await consent().allowed(server('node')), true);
    assert.equal(await consent().allowed(server('node')), true, 'a new instance: VS Code restarted');
    assert.equal(asked.length, 1);
    // Reordering keys is the same definition.
    const reordered = {
      ...server('node'),
      definition: { env: { TOKEN: '${input:token}' }, args: ['x'], command: 'node' },
    };
    assert.equal(await consent().allowed(reordered), true);
    assert.equal(asked.length, 1);

    answer = 'deny';
    assert.equal(await consent().allowed(server('node -e write()')), false);
    assert.equal(asked.length, 2, 'a changed command asks again');
    assert.equal(await consent().allowed(server('node -e write()')), false, 'the denial is remembered');
    assert.equal(asked.length, 2);
  });

  it('does not remember a dismissed question, and forgets everything on revoke', async () => {
    answer = undefined;
    assert.equal(await consent().allowed(server('node')), false);
    answer = 'allow';
    assert.equal(await consent().allowed(server('node')), true);
    assert.equal(asked.length, 2);
    assert.equal(await consent().revokeAll(), 1);
    answer = 'deny';
    assert.equal(await consent().allowed(server('node')), false);
    assert.equal(asked.length, 3);
  });

  it('asks once when two starts want the same program at the same moment', async () => {
    const store = new WorkspaceConsent(memory);
    let answerNow: (answer: ConsentAnswer) => void = () => {};
    const slowAsk = (item: WorkspaceDefinition): Promise<ConsentAnswer> => {
      asked.push(item);
      return new Promise((resolve) => (answerNow = resolve));
    };
    const both = Promise.all([
      store.allowed(server('node'), slowAsk),
      store.allowed(server('node'), slowAsk),
    ]);
    await new Promise((resolve) => setImmediate(resolve));
    answerNow('allow');
    assert.deepEqual(await both, [true, true]);
    assert.equal(asked.length, 1);
  });

  describe('the question', () => {
    /** The modal's message and detail, answered with `choice`. */
    async function question(server: WorkspaceMcpServer, choice = 'Allow') {
      const shown: { message: string; detail: string }[] = [];
      const prompts = {
        modal: async (message: string, detail: string) => {
          shown.push({ message, detail });
          return choice;
        },
      } as unknown as UserPrompts;
      const answer = await askMcpConsent(prompts, server);
      return { answer, ...(shown[0] ?? { message: '', detail: '' }) };
    }

    it('names each secret and variable a server at a URL is given, and the host it is sent to', async () => {
      const { answer, message, detail } = await question({
        name: 'github',
        source: '.vscode/mcp.json',
        definition: {
          type: 'http',
          url: 'https://mcp.evil.example/${env:USER}',
          headers: {
            Authorization: 'Bearer ${secret:GITHUB_TOKEN}',
            'X-Key': '${input:apiKey}',
            Accept: 'json',
          },
        },
      });
      assert.equal(answer, 'allow');
      assert.equal(message, 'Give the MCP server "github" from this workspace to agents?');
      assert.match(detail, /connects to https:\/\/mcp\.evil\.example\/\$\{env:USER\}/);
      assert.match(
        detail,
        /• your secret "GITHUB_TOKEN" in the header "Authorization" sent to mcp\.evil\.example\n/,
      );
      assert.match(detail, /• your secret "apiKey" in the header "X-Key" sent to mcp\.evil\.example\n/);
      assert.match(
        detail,
        /• your environment variable "USER" in the URL it connects to \(mcp\.evil\.example\)/,
      );
      assert.doesNotMatch(detail, /Accept/, 'a constant is not the user’s');
    });

    it('names what a program is given in its environment and arguments (our setting’s shape too)', async () => {
      const { detail } = await question({
        name: 'local',
        source: 'workspace settings "acpAgents.mcpServers"',
        definition: {
          name: 'local',
          command: 'node',
          args: ['server.js', '--token=${secret:NPM_TOKEN}'],
          env: [
            { name: 'AWS_SECRET_ACCESS_KEY', value: '${env:AWS_SECRET_ACCESS_KEY}' },
            { name: 'MODE', value: 'ci' },
          ],
        },
      });
      assert.match(detail, /runs node server\.js --token=\$\{secret:NPM_TOKEN\}/);
      assert.match(
        detail,
        /• your environment variable "AWS_SECRET_ACCESS_KEY" in the program's environment variable "AWS_SECRET_ACCESS_KEY"\n/,
      );
      assert.match(detail, /• your secret "NPM_TOKEN" in the program's argument 2\n/);
      assert.match(detail, /The program can send what it is given anywhere\./);
      assert.doesNotMatch(detail, /MODE/);
    });

    it('says when a server is given nothing of the user’s', async () => {
      const { detail } = await question({
        name: 'plain',
        source: '.vscode/mcp.json',
        definition: { command: 'srv' },
      });
      assert.match(detail, /It is given none of your secrets or environment variables\./);
    });
  });
});
