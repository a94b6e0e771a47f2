import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentDefinition } from '../../src/chat/agentSettings';
import { MAX_WAITING_PERMISSIONS } from '../../src/core/session/permissionQueue';
import { STATE_BOUNDS } from '../../src/core/session/stateBounds';
import { DEFAULT_TERMINAL_BOUNDS } from '../../src/features/terminals/core/nodeTerminals';
import { ChatHarness } from '../unit/support/chatHarness';
import { HOSTILE_AGENT, memory, MiB, until } from './hostile';
import { ownedPerTest } from '../support/ownedPerTest';

function hostileAgent(id: string): AgentDefinition {
  return { id, label: `Hostile ${id}`, command: process.execPath, args: [HOSTILE_AGENT], env: {} };
}

/** Ends the chat and reads the one chat journal it left (its bytes and lines), then removes its storage. */
async function journalAfterEnd(chat: ChatHarness): Promise<{ bytes: number; lines: string[] }> {
  await chat.dispose({ keepStorage: true });
  const folder = path.join(chat.storageDir, 'chats');
  const [name] = readdirSync(folder).filter((n) => n.endsWith('.jsonl'));
  const file = path.join(folder, name as string);
  const journal = { bytes: statSync(file).size, lines: readFileSync(file, 'utf8').trim().split('\n') };
  rmSync(chat.storageDir, { recursive: true, force: true });
  return journal;
}

/** Running processes started by the terminal storm (by their command line in /proc). */
function stormProcesses(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const running = stat.replace(/^.*\) /s, '')[0] !== 'Z';
        return running && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('"z".repeat(1024 * 1024)');
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('faults: storms stay bounded in memory, in the chat and in the journal', () => {
  const owned = ownedPerTest();

  it('bounds plans, commands, setting values and the title, says so, and journals each update as a change', async () => {
    const chat = owned(new ChatHarness({ agents: [hostileAgent('h')] }));
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
    const notices = chat.view.notices().map((n) => n.title);
    assert.deepEqual(notices, [
      'The agent sent 100,000 commands; only the first 500 are kept.',
      'The agent sent 100,000 setting choices; only the first 1,000 are kept.',
    ]);
    const grown = memory().heap - before.heap;
    assert.ok(grown < 64 * MiB, `heap grew ${Math.round(grown / MiB)} MiB`);

    const journal = await journalAfterEnd(chat);
    assert.ok(journal.bytes < 512 * 1024, `journal is ${journal.bytes} bytes`);
    // Each usage update is journaled as itself: the commands are written once, never again with a usage
    // update. (A line may batch several events, so each event is checked, not each line.)
    const stateEvents = journal.lines.flatMap((line) => {
      const record = JSON.parse(line) as {
        t: string;
        events?: { type: string; changed?: string; state?: object }[];
      };
      return (record.events ?? []).filter((e) => e.type === 'state_updated');
    });
    const usageEvents = stateEvents.filter((e) => e.changed === 'usage');
    assert.equal(usageEvents.length, 10);
    for (const event of usageEvents) {
      assert.deepEqual(
        Object.keys(event.state ?? {}),
        ['usage'],
        'a usage update carried more than the usage',
      );
    }
    assert.equal(stateEvents.filter((e) => JSON.stringify(e.state).includes('cmd-0')).length, 1);
  });

  it('keeps 2,000 of 100,000 distinct tool calls in one turn, says so once, and stays bounded', async () => {
    const chat = owned(new ChatHarness({ agents: [hostileAgent('h')] }));
    await chat.ready();
    const before = memory();
    await chat.send('tool-storm 100000');
    assert.match(chat.transcript(), /tool storm done$/);
    const entries = chat.controller.viewState().chat?.thread.entries ?? [];
    assert.equal(entries.filter((e) => e.kind === 'tool_call').length, STATE_BOUNDS.toolCallsPerTurn);
    const notices = chat.view.notices().map((n) => n.title);
    assert.deepEqual(notices, [
      'The agent started more than 2,000 tool calls in this turn; later ones are not shown.',
    ]);
    const grown = memory().heap - before.heap;
    assert.ok(grown < 64 * MiB, `heap grew ${Math.round(grown / MiB)} MiB`);
    const journal = await journalAfterEnd(chat);
    assert.ok(journal.bytes < 2 * MiB, `journal is ${journal.bytes} bytes`);
  });

  it('asks 10,000 permission requests one at a time with the count waiting, refuses past the bound once, and Stop cancels all', async () => {
    const chat = owned(new ChatHarness({ agents: [hostileAgent('h')] }));
    await chat.ready();
    const harness = chat;
    const before = memory();
    const sending = harness.send('permission-storm 10000');
    const pendingCards = () =>
      (harness.controller.viewState().chat?.thread.entries ?? []).flatMap((e) =>
        e.kind === 'tool_call' && e.permission?.status === 'pending' ? [e.permission] : [],
      );
    const refusal = 'The agent asked for more permissions than can wait; further requests were refused.';
    const notices = () => harness.view.notices().map((n) => n.title);
    await until(
      () => notices().length > 0 && pendingCards()[0]?.waiting === MAX_WAITING_PERMISSIONS - 1,
      30_000,
    );
    // One request asked, the rest counted behind it.
    assert.equal(harness.permissions.prompts.length, 1);
    assert.equal(pendingCards().length, 1);
    assert.deepEqual(notices(), [refusal]);

    // Answering the first asks the second, with one fewer waiting.
    const first = pendingCards()[0];
    assert.ok(first);
    await harness.controller.handleMessage({ type: 'answer_permission', key: first.key, optionId: 'yes' });
    await until(() => harness.permissions.prompts.length === 2);
    assert.equal(pendingCards()[0]?.waiting, MAX_WAITING_PERMISSIONS - 2);
    assert.equal(harness.permissions.prompts[1]?.following, true);

    await harness.controller.handleMessage({ type: 'cancel' });
    await sending;
    assert.equal(pendingCards().length, 0);
    const report = /permissions: (\d+) selected, (\d+) cancelled, (\d+) errors/;
    await until(() => report.test(harness.transcript()), 30_000);
    const [, selected, cancelled, errors] = (report.exec(harness.transcript()) ?? []).map(Number);
    assert.equal(selected, 1);
    assert.equal((selected ?? 0) + (cancelled ?? 0) + (errors ?? 0), 10_000);
    assert.ok((errors ?? 0) >= 1, 'refused past the bound');
    // Only requests that were let in to wait ever became cards.
    const cards = (harness.controller.viewState().chat?.thread.entries ?? []).filter(
      (e) => e.kind === 'tool_call',
    );
    assert.ok(cards.length <= MAX_WAITING_PERMISSIONS + 1, `${cards.length} cards`);
    assert.deepEqual(notices(), [refusal], 'told once');
    const grown = memory().heap - before.heap;
    assert.ok(grown < 64 * MiB, `heap grew ${Math.round(grown / MiB)} MiB`);
  });

  it('refuses terminals past the per-session cap, caps their output, and kills them all when the agent stops', async () => {
    const chat = owned(new ChatHarness({ agents: [hostileAgent('h')] }));
    await chat.ready();
    const before = memory();
    await chat.send('terminal-storm 1000');
    const report = /terminals: (\d+) created, (\d+) refused, (\d+) bytes held/.exec(chat.transcript());
    assert.ok(report, chat.transcript().slice(-300));
    const [, created, refused, held] = report.map(Number);
    assert.equal(created, DEFAULT_TERMINAL_BOUNDS.maxLivePerSession);
    assert.equal(refused, 1000 - DEFAULT_TERMINAL_BOUNDS.maxLivePerSession);
    assert.ok((held ?? 0) <= (created ?? 0) * MiB, `${held} bytes held`);
    const grown = memory().rss - before.rss;
    assert.ok(grown < 200 * MiB, `rss grew ${Math.round(grown / MiB)} MiB`);
    assert.equal(stormProcesses().length, created, 'the created commands run');
    // Stopping the agent (not disposing the terminals) ends every command of its session.
    await chat.controller.shutdown();
    await until(() => stormProcesses().length === 0, 10_000);
  });
});
