import { strict as assert } from 'node:assert';
import {
  McpConsent,
  type ConsentAnswer,
  type WorkspaceMcpServer,
} from '../../../src/features/mcp/chat/mcpConsent';

/** workspaceState as VS Code keeps it: a key-value store (JSON round trip, as on disk). */
class Memory {
  private readonly values = new Map<string, string>();
  get(key: string): unknown {
    const raw = this.values.get(key);
    return raw === undefined ? undefined : JSON.parse(raw);
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) {
      this.values.delete(key);
    } else {
      this.values.set(key, JSON.stringify(value));
    }
  }
}

describe('consent for workspace MCP servers', () => {
  const server = (command: string): WorkspaceMcpServer => ({
    name: 'evil',
    source: '.vscode/mcp.json',
    definition: { command, args: ['x'], env: { TOKEN: '${input:token}' } },
  });
  let asked: WorkspaceMcpServer[];
  let answer: ConsentAnswer;
  let memory: Memory;
  const consent = (): McpConsent =>
    new McpConsent(memory, async (s) => {
      asked.push(s);
      return answer;
    });

  beforeEach(() => {
    asked = [];
    answer = 'allow';
    memory = new Memory();
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
});
