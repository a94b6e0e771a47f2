import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ChatJournal, type ChatMeta } from '../../src/core/journal/journal';
import { openWindow, runWriter, startTogether } from './support/otherWindow';
import { parseJournal } from '../../src/core/journal/journalFormat';
import { Thread } from '../../src/core/thread/thread';
import type { ThreadEvent } from '../../src/core/thread/threadTypes';

function meta(chatId: string): ChatMeta {
  return { chatId, agentId: 'demo', createdAt: 1, updatedAt: 1 };
}

/** A chat `chatId` made in `journal` (its meta saved), and a thread whose events are kept for it to write. */
async function newChat(
  journal: ChatJournal,
  chatId: string,
): Promise<{ thread: Thread; events: ThreadEvent[] }> {
  journal.created(chatId);
  await journal.saveMeta(meta(chatId));
  const thread = new Thread();
  const events: ThreadEvent[] = [];
  thread.onEvent((event) => events.push(event));
  return { thread, events };
}

/** The user texts of a chat's journal as read back, and how many lines could not be read. */
function journalOf(dir: string, chatId: string): { texts: string[]; unreadable: number } {
  const parsed = parseJournal(readFileSync(path.join(dir, 'chats', `${chatId}.jsonl`), 'utf8'));
  const texts = [
    ...(parsed.snapshot?.entries ?? []),
    ...parsed.events.flatMap((e) => (e.type === 'entry_added' ? [e.entry] : [])),
  ].flatMap((entry) => (entry.kind === 'user' ? [entry.text] : []));
  return { texts, unreadable: parsed.unreadable };
}

/** Makes a folder and its files unwritable, even for root (who ignores modes): `chattr +i` there. */
function setWritable(folder: string, writable: boolean): void {
  const targets = [folder, ...readdirSync(folder).map((name) => path.join(folder, name))];
  if (process.getuid?.() === 0) {
    const result = spawnSync('chattr', [writable ? '-i' : '+i', ...targets]);
    assert.equal(result.status, 0, String(result.stderr));
  } else {
    for (const target of targets) {
      chmodSync(target, writable ? 0o755 : 0o555);
    }
  }
}

describe('chat journal: never loses a turn', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-journal-saving-'));
  });
  afterEach(() => {
    const chats = path.join(dir, 'chats');
    if (existsSync(chats)) {
      setWritable(chats, true);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds what it cannot write while the folder is read-only, says so, and writes it all once it can', async () => {
    const journal = new ChatJournal(dir, { retryMs: 60_000 });
    const chatId = 'chat-ro';
    const { thread, events } = await newChat(journal, chatId);
    const changes: (string | undefined)[] = [];
    journal.onDidChangeSaving((id) => changes.push(id === chatId ? journal.savingProblem(id) : 'other'));

    const turn = thread.startTurn('first', []);
    await journal.appendEvents(chatId, events.splice(0));
    setWritable(path.join(dir, 'chats'), false);
    thread.applyUpdate({
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: 'held answer' },
    });
    await journal.appendEvents(chatId, events.splice(0));
    thread.endTurn(turn.id, { status: 'completed', stopReason: 'end_turn' });
    await journal.appendEvents(chatId, events.splice(0));
    assert.match(journal.savingProblem(chatId) ?? '', /cannot be written/);
    assert.equal(
      journal.writtenElsewhere(chatId),
      false,
      'a failure of this window does not make it read-only',
    );
    assert.equal(
      (await journal.read(chatId))?.thread.turns[0]?.status,
      'running',
      'nothing written meanwhile',
    );

    setWritable(path.join(dir, 'chats'), true);
    await journal.retryNow();
    assert.equal(journal.savingProblem(chatId), undefined);
    assert.equal(changes.length, 2, 'the notice is shown once and cleared once');
    assert.match(changes[0] ?? '', /cannot be written/);
    assert.equal(changes[1], undefined);
    const reread = await new ChatJournal(dir).read(chatId);
    assert.deepEqual(reread?.thread, thread.snapshot());
    journal.dispose();
  });

  it('keeps held lines bounded and asks for a compaction, which then saves the whole chat', async () => {
    const journal = new ChatJournal(dir, { retryMs: 60_000, maxHeldBytes: 4096 });
    const chatId = 'chat-bound';
    const { thread, events } = await newChat(journal, chatId);
    setWritable(path.join(dir, 'chats'), false);
    for (let i = 0; i < 100; i++) {
      const turn = thread.startTurn(`turn ${i} ${'x'.repeat(100)}`, []);
      thread.endTurn(turn.id, { status: 'completed', stopReason: 'end_turn' });
      await journal.appendEvents(chatId, events.splice(0));
    }
    assert.equal(journal.needsCompaction(chatId), true);
    await journal.compact(meta(chatId), thread.snapshot());
    assert.notEqual(journal.savingProblem(chatId), undefined);
    setWritable(path.join(dir, 'chats'), true);
    await journal.retryNow();
    assert.equal(journal.savingProblem(chatId), undefined);
    assert.equal(journal.needsCompaction(chatId), false);
    assert.deepEqual((await new ChatJournal(dir).read(chatId))?.thread, thread.snapshot());
    journal.dispose();
  });

  it('lets one of two processes write a chat at a time: no torn line, every saved turn kept, the other told', async () => {
    const chatId = 'chat-two';
    const setup = new ChatJournal(dir);
    await setup.saveMeta(meta(chatId));
    setup.dispose();
    const a = runWriter(dir, chatId, 'a', 120, 25);
    const b = runWriter(dir, chatId, 'b', 120, 25);
    // Both windows have the chat open before either writes: the second to write must be refused.
    await startTogether(a, b);
    const reports = await Promise.all([a.report, b.report]);
    await Promise.all([a.exited, b.exited]);
    const writers = reports.filter((r) => r.problem === null).map((r) => r.name);
    const refused = reports.filter((r) => r.problem !== null);
    assert.equal(writers.length, 1, JSON.stringify(reports));
    assert.match(refused[0]?.problem ?? '', /another window/);
    const { texts, unreadable } = journalOf(dir, chatId);
    assert.equal(unreadable, 0, 'no torn line');
    assert.deepEqual(
      texts,
      Array.from({ length: 120 }, (_, i) => `${writers[0]}-${i}`),
      'every turn of the writing process, none of the refused one',
    );
    assert.equal(
      existsSync(path.join(dir, 'chats', `${chatId}.jsonl.lock`)),
      false,
      'the lock went with its window',
    );
  });

  it('takes over the lock of a window that crashed, and refuses a chat another window changed meanwhile', async () => {
    const chatId = 'chat-crash';
    const setup = new ChatJournal(dir);
    await setup.saveMeta(meta(chatId));
    setup.dispose();
    const here = new ChatJournal(dir, { retryMs: 60_000 });
    const seen = await here.read(chatId);
    assert.ok(seen);
    const crashed = runWriter(dir, chatId, 'crashed', 3, 1000, true);
    await startTogether(crashed);
    assert.equal((await crashed.report).problem, null);
    const thread = Thread.restore(seen.thread);
    const events: ThreadEvent[] = [];
    thread.onEvent((event) => events.push(event));
    thread.startTurn('mine', []);
    await here.appendEvents(chatId, events.splice(0));
    assert.match(here.savingProblem(chatId) ?? '', /open for writing in another window \(process \d+ on /);
    assert.equal(here.writtenElsewhere(chatId), true, 'read-only here while the other window writes');
    crashed.child.kill('SIGKILL');
    await crashed.exited;
    await here.retryNow();
    // The lock was stale and is ours now, but the file holds the other window's turns: not written over.
    assert.match(here.savingProblem(chatId) ?? '', /changed or deleted it since this window read it/);
    assert.equal(here.writtenElsewhere(chatId), true);
    assert.deepEqual(journalOf(dir, chatId).texts, ['crashed-0', 'crashed-1', 'crashed-2']);
    // A window that reads the chat anew writes it again.
    const fresh = new ChatJournal(dir);
    const reread = await fresh.read(chatId);
    assert.ok(reread);
    await fresh.saveMeta({ ...reread.meta, customTitle: 'after' });
    assert.equal(fresh.savingProblem(chatId), undefined);
    assert.equal(fresh.writtenElsewhere(chatId), false);
    here.dispose();
    fresh.dispose();
  });
});

/**
 * Two windows (real processes) on one chat, each step in an order the test chooses: whatever the order, a
 * window writes only over the file as it last read or wrote it — one that never read it, or whose file
 * another window changed or deleted since, refuses and says so. Nothing another window wrote is dropped.
 */
describe('chat journal: two windows, order by order', () => {
  let dir: string;
  const windows: ReturnType<typeof openWindow>[] = [];
  const chatId = 'chat-orders';
  const window = (): ReturnType<typeof openWindow> => {
    const opened = openWindow(dir, chatId);
    windows.push(opened);
    return opened;
  };
  const texts = (): string[] => journalOf(dir, chatId).texts;
  const turns = (name: string, count: number): string[] =>
    Array.from({ length: count }, (_, i) => `${name}-${i}`);
  const CHANGED = /another window changed or deleted it since this window read it/;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-journal-orders-'));
  });
  afterEach(async () => {
    for (const opened of windows.splice(0)) {
      opened.child.kill('SIGKILL');
      await opened.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  /** The chat as a window that started it left it: its meta and `count` turns `start-…`. */
  async function existingChat(count = 1): Promise<void> {
    const setup = window();
    await setup.step('create');
    await setup.step(`turns start ${count}`);
    await setup.step('close');
    await setup.exited;
  }

  for (const ending of ['close', 'crash'] as const) {
    it(`both read; the other writes 60 turns, compacts and ${ending === 'close' ? 'closes' : 'crashes (its lock left behind)'}; then this one compacts: refused`, async () => {
      await existingChat();
      const here = window();
      const other = window();
      assert.equal((await here.step('read')).known, true);
      assert.equal((await other.step('read')).known, true);
      assert.equal((await other.step('turns b 60')).problem, null);
      assert.equal((await other.step('compact')).problem, null);
      await other.step(ending);
      await other.exited;
      assert.match((await here.step('compact')).problem ?? '', CHANGED);
      assert.match((await here.step('append mine')).problem ?? '', CHANGED);
      assert.deepEqual(texts(), ['start-0', ...turns('b', 60)], "the other window's turns are all there");
    });
  }

  it('both read; this one writes first, the other is refused while it runs, then compacts after it closed: refused', async () => {
    await existingChat();
    const here = window();
    const other = window();
    await here.step('read');
    await other.step('read');
    assert.equal((await here.step('turns a 60')).problem, null);
    assert.match((await other.step('append b')).problem ?? '', /open for writing in another window/);
    await here.step('close');
    await here.exited;
    assert.match((await other.step('compact')).problem ?? '', CHANGED);
    assert.match((await other.step('retry')).problem ?? '', CHANGED);
    assert.deepEqual(texts(), ['start-0', ...turns('a', 60)]);
  });

  for (const ending of ['close', 'crash'] as const) {
    it(`this one looked before the chat existed; the other starts it, writes 60 turns and ${ending === 'close' ? 'closes' : 'crashes'}; then this one compacts: refused (never read)`, async () => {
      const here = window();
      const other = window();
      assert.equal((await here.step('read')).known, false);
      await other.step('create');
      assert.equal((await other.step('turns b 60')).problem, null);
      await other.step(ending);
      await other.exited;
      assert.match((await here.step('compact')).problem ?? '', CHANGED);
      assert.match((await here.step('append mine')).problem ?? '', CHANGED);
      assert.deepEqual(texts(), turns('b', 60));
    });
  }

  it('this one holds the chat; the other deletes it; this one writes on: refused, nothing headless written', async () => {
    await existingChat();
    const here = window();
    const other = window();
    await here.step('read');
    assert.equal((await here.step('append a-0')).problem, null, 'this window holds the lock now');
    await other.step('read');
    await other.step('delete');
    assert.match((await here.step('append a-1')).problem ?? '', CHANGED);
    assert.match((await here.step('compact')).problem ?? '', CHANGED);
    assert.equal(
      existsSync(path.join(dir, 'chats', `${chatId}.jsonl`)),
      false,
      'the deleted chat stays deleted',
    );
  });

  it('this one reads, writes and compacts alone: every write saved (the check does not refuse its own file)', async () => {
    await existingChat(3);
    const here = window();
    await here.step('read');
    for (let i = 0; i < 5; i++) {
      assert.equal((await here.step(`append a-${i}`)).problem, null);
      assert.equal((await here.step('compact')).problem, null);
    }
    assert.deepEqual(texts(), [...turns('start', 3), ...turns('a', 5)]);
  });
});
