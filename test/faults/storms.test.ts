import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentDefinition } from '../../src/chat/agentSettings';
import { STATE_BOUNDS } from '../../src/core/stateBounds';
import { ChatHarness } from '../unit/support/chatHarness';
import { HOSTILE_AGENT, memory, MiB } from './hostile';

function hostileAgent(id: string): AgentDefinition {
  return { id, label: `Hostile ${id}`, command: process.execPath, args: [HOSTILE_AGENT], env: {} };
}

/** The one chat journal of a harness's storage: its bytes and lines. */
function journalOf(storageDir: string): { bytes: number; lines: string[] } {
  const folder = path.join(storageDir, 'chats');
  const [name] = readdirSync(folder).filter((n) => n.endsWith('.jsonl'));
  const file = path.join(folder, name as string);
  return { bytes: statSync(file).size, lines: readFileSync(file, 'utf8').trim().split('\n') };
}

describe('faults: storms stay bounded in memory, in the chat and in the journal', () => {
  let chat: ChatHarness | undefined;
  afterEach(async () => {
    await chat?.dispose();
    chat = undefined;
  });

  it('bounds plans, commands, setting values and the title, says so, and journals each update as a change', async () => {
    chat = new ChatHarness({ agents: [hostileAgent('h')] });
    await chat.ready();
    const before = memory();
    await chat.send('state-storm');
    assert.match(chat.transcript(), /state storm done$/);
    const state = chat.controller.viewState().chat?.thread.state;
    assert.ok(state);
    assert.equal(state.title?.length, STATE_BOUNDS.titleChars);
    assert.ok(state.title?.endsWith('…'));
    assert.equal(state.plan.length, STATE_BOUNDS.planEntries + 1);
    assert.equal(state.plan.at(-1)?.content, '… 49,800 more steps not shown');
    assert.equal(state.commands.length, STATE_BOUNDS.commands);
    const option = state.configOptions[0];
    assert.ok(option?.type === 'select');
    assert.equal(option.choices.length, STATE_BOUNDS.choices);
    assert.deepEqual(state.usage, { used: 10_000, size: 200_000 });
    const notices = chat.view.events().flatMap((e) => (e.type === 'notice' ? [e.notice.title] : []));
    assert.deepEqual(notices, [
      'The agent sent 100,000 commands; only the first 500 are kept.',
      'The agent sent 100,000 setting choices; only the first 1,000 are kept.',
    ]);
    const grown = memory().heap - before.heap;
    assert.ok(grown < 64 * MiB, `heap grew ${Math.round(grown / MiB)} MiB`);

    const storageDir = chat.storageDir;
    await chat.dispose({ keepStorage: true });
    chat = undefined;
    const journal = journalOf(storageDir);
    rmSync(storageDir, { recursive: true, force: true });
    assert.ok(journal.bytes < 512 * 1024, `journal is ${journal.bytes} bytes`);
    // Each usage update is journaled as itself: no line carries the commands again after it.
    const usageLines = journal.lines.filter((line) => line.includes('"changed":"usage"'));
    assert.ok(usageLines.length >= 1);
    for (const line of usageLines) {
      assert.ok(!line.includes('cmd-0'), 'a usage update carried the commands');
    }
  });

  it('keeps 2,000 of 100,000 distinct tool calls in one turn, says so once, and stays bounded', async () => {
    chat = new ChatHarness({ agents: [hostileAgent('h')] });
    await chat.ready();
    const before = memory();
    await chat.send('tool-storm 100000');
    assert.match(chat.transcript(), /tool storm done$/);
    const entries = chat.controller.viewState().chat?.thread.entries ?? [];
    assert.equal(entries.filter((e) => e.kind === 'tool_call').length, STATE_BOUNDS.toolCallsPerTurn);
    const notices = chat.view.events().flatMap((e) => (e.type === 'notice' ? [e.notice.title] : []));
    assert.deepEqual(notices, [
      'The agent started more than 2,000 tool calls in this turn; later ones are not shown.',
    ]);
    const grown = memory().heap - before.heap;
    assert.ok(grown < 64 * MiB, `heap grew ${Math.round(grown / MiB)} MiB`);
    const storageDir = chat.storageDir;
    await chat.dispose({ keepStorage: true });
    chat = undefined;
    const journal = journalOf(storageDir);
    rmSync(storageDir, { recursive: true, force: true });
    assert.ok(journal.bytes < 2 * MiB, `journal is ${journal.bytes} bytes`);
  });
});
