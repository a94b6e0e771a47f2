import { strict as assert } from 'node:assert';
import type { ToolCallEntry } from '../../../src/core/thread/threadTypes';
import { entriesOf, firstTurn, text, useTestAgent } from '../support/testAgent';

describe('terminal/* requests', () => {
  const agent = useTestAgent();

  it('creates a terminal, waits for the exit, reads the output and releases it', async () => {
    const { session, turn } = await firstTurn(agent, 'terminal echo out && echo err 1>&2; pwd; exit 4');
    assert.equal(turn.status, 'completed');
    const entries = entriesOf(session);
    const tool = entries[1] as ToolCallEntry;
    assert.equal(tool.toolKind, 'execute');
    assert.equal(tool.status, 'completed');
    assert.equal(tool.content.length, 1);
    assert.equal(tool.content[0]?.type, 'terminal');
    const reply = entries.at(-1) as { text: string };
    const [status, ...lines] = reply.text.split('\n');
    assert.equal(status, 'exit 4');
    // stdout and stderr are separate pipes: both are kept, their interleaving is up to the OS.
    assert.deepEqual(lines.sort(), ['', agent.dir, 'err', 'out']);
  });

  it('kills a running command', async () => {
    const session = await agent.session();
    await session.prompt([text('terminal-kill sleep 30')]);
    const reply = entriesOf(session).at(-1) as { text: string };
    assert.match(reply.text, /^killed exit=(null|143) signal=(SIGTERM|null)$/);
    assert.notEqual(reply.text, 'killed exit=null signal=null');
  });

  it('keeps only the last outputByteLimit bytes of the output', async () => {
    const session = await agent.session();
    // The agent asks for a 1000-byte limit; 3000 bytes are printed.
    await session.prompt([text("terminal for i in $(seq 1 300); do printf '%09d\\n' $i; done")]);
    const reply = entriesOf(session).at(-1) as { text: string };
    const [status, ...lines] = reply.text.split('\n');
    assert.equal(status, 'exit 0');
    assert.equal(lines.join('\n').length, 1000);
    assert.equal(lines.at(-2), '000000300');
  });
});
