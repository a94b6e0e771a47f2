/**
 * A window's journal as a real process that does one step at a time, told on stdin, so a test can put two
 * windows' reads, writes, compactions and exits in any order it chooses. Run with
 * `node --import tsx journalWindow.ts <storageDir> <chatId>`; each line on stdin is a step, each step is
 * answered by one JSON line on stdout (`{ "problem": string | null, "known"?: boolean }`):
 *
 * - `read`: reads the chat (`known`: it was there to read);
 * - `create`: starts the chat here (a new chat: its file must not exist yet) and writes its meta line;
 * - `append <text>`: a turn with the user text `<text>`, appended;
 * - `turns <name> <count>`: `count` turns `<name>-0` … appended one by one;
 * - `compact`: the chat as this window has it, written as one snapshot;
 * - `retry`: held writes retried now;
 * - `delete`: deletes the chat (as the chat list's delete does);
 * - `close`: gives up its locks and exits (the window closed);
 * - `crash`: exits at once, leaving its lock behind (the window's host was killed).
 *
 * Retries wait a minute: nothing is written between steps unless a step asks.
 */
import { createInterface } from 'node:readline';
import { ChatJournal, type ChatMeta } from '../../../src/core/journal/journal';
import { Thread } from '../../../src/core/thread/thread';
import type { ThreadEvent } from '../../../src/core/thread/threadTypes';

async function main(): Promise<void> {
  const [storageDir, chatId] = process.argv.slice(2);
  if (!storageDir || !chatId) {
    throw new Error('usage: journalWindow <storageDir> <chatId>');
  }
  const journal = new ChatJournal(storageDir, { retryMs: 60_000 });
  let meta: ChatMeta = { chatId, agentId: 'demo', createdAt: 1, updatedAt: 1 };
  let thread = new Thread();
  const events: ThreadEvent[] = [];
  let listening = thread.onEvent((event) => events.push(event));
  const turn = async (text: string): Promise<void> => {
    const started = thread.startTurn(text, []);
    thread.endTurn(started.id, { status: 'completed', stopReason: 'end_turn' });
    await journal.appendEvents(chatId, events.splice(0));
  };
  const answer = (extra: Record<string, unknown> = {}): void => {
    process.stdout.write(`${JSON.stringify({ problem: journal.savingProblem(chatId) ?? null, ...extra })}\n`);
  };
  for await (const line of createInterface({ input: process.stdin })) {
    const [step, ...args] = line.trim().split(' ');
    switch (step) {
      case 'read': {
        const saved = await journal.read(chatId);
        if (saved) {
          meta = saved.meta;
          listening.dispose();
          thread = Thread.restore(saved.thread);
          listening = thread.onEvent((event) => events.push(event));
        }
        answer({ known: saved !== undefined });
        break;
      }
      case 'create':
        journal.created(chatId);
        await journal.saveMeta(meta);
        answer();
        break;
      case 'append':
        await turn(args.join(' '));
        answer();
        break;
      case 'turns':
        for (let i = 0; i < Number(args[1]); i++) {
          await turn(`${args[0]}-${i}`);
        }
        answer();
        break;
      case 'compact':
        await journal.compact(meta, thread.snapshot());
        answer();
        break;
      case 'retry':
        await journal.retryNow();
        answer();
        break;
      case 'delete':
        await journal.delete(chatId);
        answer();
        break;
      case 'close':
        await journal.flush();
        journal.dispose();
        answer();
        process.exit(0);
        break;
      case 'crash':
        answer();
        process.exit(1);
        break;
      default:
        throw new Error(`unknown step ${line}`);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(2);
});
