/**
 * A second window's journal, as a real process: reads a chat, writes `count` turns to it (compacting
 * every `compactEvery`), and prints what it knows of its saving as one JSON line. Run with
 * `node --import tsx journalWriter.ts <storageDir> <chatId> <name> <count> <compactEvery> [hold]`;
 * with `hold` it keeps its lock and waits to be killed (a crashed window). After reading the chat it prints
 * `ready` and writes only once a line arrives on stdin, so a test can have two windows read before either writes.
 */
import { ChatJournal } from '../../../src/core/journal/journal';
import { Thread } from '../../../src/core/thread/thread';
import type { ThreadEvent } from '../../../src/core/thread/threadTypes';

async function main(): Promise<void> {
  const [storageDir, chatId, name, countText, compactText, hold] = process.argv.slice(2);
  if (!storageDir || !chatId || !name) {
    throw new Error('usage: journalWriter <storageDir> <chatId> <name> <count> <compactEvery> [hold]');
  }
  const journal = new ChatJournal(storageDir, { retryMs: 10 });
  const saved = await journal.read(chatId);
  if (!saved) {
    throw new Error(`no chat ${chatId}`);
  }
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  process.stdin.pause();
  const thread = Thread.restore(saved.thread);
  const events: ThreadEvent[] = [];
  thread.onEvent((event) => events.push(event));
  const count = Number(countText);
  const compactEvery = Number(compactText);
  for (let i = 0; i < count; i++) {
    const turn = thread.startTurn(`${name}-${i}`, []);
    thread.endTurn(turn.id, { status: 'completed', stopReason: 'end_turn' });
    await journal.appendEvents(chatId, events.splice(0));
    if ((i + 1) % compactEvery === 0) {
      await journal.compact(saved.meta, thread.snapshot());
    }
  }
  await journal.flush();
  process.stdout.write(`${JSON.stringify({ name, problem: journal.savingProblem(chatId) ?? null })}\n`);
  if (hold === 'hold') {
    setInterval(() => {}, 1000);
    return;
  }
  journal.dispose();
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
