// Storm benchmark (`npm run bench`): what a flooding agent costs the extension host once bounded —
// heap per storm and time and journal bytes per state update — through the real Thread and journal
// (no agent process: the fault suite drives the same storms over stdio and asserts the bounds).
// Baselines are the figures before the bounds (issue 20). It prints figures; it asserts nothing.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ChatJournal } from '../src/core/journal/journal';
import { Thread } from '../src/core/thread/thread';
import type { ThreadEvent } from '../src/core/thread/threadTypes';

const MiB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;
function heap(): number {
  gc?.();
  return process.memoryUsage().heapUsed;
}

async function stateStorm(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-storm-'));
  const journal = new ChatJournal(dir);
  const chatId = 'storm';
  journal.created(chatId);
  await journal.saveMeta({ chatId, agentId: 'bench', createdAt: 1, updatedAt: 1 });
  const thread = new Thread();
  const events: ThreadEvent[] = [];
  thread.onEvent((event) => events.push(event));
  const before = heap();
  thread.startTurn('storm', []);
  thread.applyUpdate({
    sessionUpdate: 'plan',
    entries: Array.from({ length: 50_000 }, (_, i) => ({
      content: `step ${i}`,
      priority: 'medium',
      status: 'pending',
    })),
  });
  thread.applyUpdate({
    sessionUpdate: 'available_commands_update',
    availableCommands: Array.from({ length: 100_000 }, (_, i) => ({
      name: `cmd-${i}`,
      description: `command ${i}`,
    })),
  });
  thread.applyUpdate({ sessionUpdate: 'session_info_update', title: 't'.repeat(5 * MiB) });
  await journal.appendEvents(chatId, events.splice(0));
  const file = path.join(dir, 'chats', `${chatId}.jsonl`);
  const afterState = statSync(file).size;
  const times: number[] = [];
  for (let i = 1; i <= 10; i++) {
    const start = performance.now();
    thread.applyUpdate({ sessionUpdate: 'usage_update', used: i * 1000, size: 200_000 });
    await journal.appendEvents(chatId, events.splice(0));
    times.push(performance.now() - start);
  }
  const perUpdate = (statSync(file).size - afterState) / 10;
  times.sort((a, b) => a - b);
  console.log(
    `state storm (50,000 steps, 100,000 commands, 5 MB title): heap +${((heap() - before) / MiB).toFixed(1)} MiB, journal ${(afterState / 1024).toFixed(0)} KiB`,
  );
  console.log(
    `  usage_update after it: ${perUpdate.toFixed(0)} bytes journaled per update, median ${(times[5] ?? 0).toFixed(2)} ms  [baseline: ~6 MB per update, 66 MB for ten]`,
  );
  journal.dispose();
  rmSync(dir, { recursive: true, force: true });
}

function toolStorm(): void {
  const thread = new Thread();
  let events = 0;
  thread.onEvent(() => events++);
  const before = heap();
  thread.startTurn('storm', []);
  const start = performance.now();
  for (let i = 0; i < 100_000; i++) {
    thread.applyUpdate({
      sessionUpdate: 'tool_call',
      toolCallId: `t${i}`,
      title: `Read ${i}`,
      kind: 'read',
      status: 'completed',
    });
  }
  const ms = performance.now() - start;
  console.log(
    `tool storm (100,000 distinct tool calls in one turn): heap +${((heap() - before) / MiB).toFixed(1)} MiB, ${ms.toFixed(0)} ms, ${events} events  [baseline: 31 MB, 305 ms stall]`,
  );
}

void stateStorm().then(toolStorm);
