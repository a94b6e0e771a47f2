import { strict as assert } from 'node:assert';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { ChatJournal, type ChatMeta } from '../../src/core/journal/journal';
import { Thread } from '../../src/core/thread/thread';
import type { ThreadEvent } from '../../src/core/thread/threadTypes';
import { useTempFolder } from '../support/tempFolder';

function chunk(text: string): acp.SessionUpdate {
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } };
}

function meta(chatId: string, updatedAt: number, extra: Partial<ChatMeta> = {}): ChatMeta {
  return { chatId, agentId: 'demo', createdAt: 1, updatedAt, ...extra };
}

describe('chat journal', () => {
  const storage = useTempFolder('acp-journal-');
  let journal: ChatJournal;
  beforeEach(() => {
    journal = new ChatJournal(storage.path);
  });

  /** Drives a thread and journals its events the way the chat does. */
  async function recordThread(chatId: string): Promise<Thread> {
    const thread = new Thread();
    const events: ThreadEvent[] = [];
    thread.onEvent((event) => events.push(event));
    await journal.saveMeta(meta(chatId, 10, { acpSessionId: 'sess-1' }));
    const turn = thread.startTurn('hello', []);
    thread.applyUpdate(chunk('Hi '));
    thread.applyUpdate(chunk('there'));
    await journal.appendEvents(chatId, events.splice(0));
    thread.applyUpdate({
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'Read a.ts',
      kind: 'read',
      status: 'completed',
    });
    thread.applyUpdate({ sessionUpdate: 'session_info_update', title: 'Greeting' });
    thread.endTurn(turn.id, { status: 'completed', stopReason: 'end_turn' });
    await journal.appendEvents(chatId, events.splice(0));
    return thread;
  }

  it('round-trips a chat: meta, entries, turns and state', async () => {
    const thread = await recordThread('chat-a');
    const [chat] = await journal.readAll();
    assert.deepEqual(chat?.meta, meta('chat-a', 10, { acpSessionId: 'sess-1' }));
    assert.deepEqual(chat?.thread, thread.snapshot());
  });

  it('skips a torn last line and keeps everything before it, then appends cleanly', async () => {
    const thread = await recordThread('chat-a');
    const file = path.join(storage.path, 'chats', 'chat-a.jsonl');
    appendFileSync(file, '{"t":"events","events":[{"type":"text_app');
    assert.deepEqual((await journal.read('chat-a'))?.thread, thread.snapshot());
    // The next append starts on a fresh line, so the torn one cannot swallow it.
    await journal.saveMeta(meta('chat-a', 20, { customTitle: 'Renamed' }));
    const after = await journal.read('chat-a');
    assert.equal(after?.meta.customTitle, 'Renamed');
    assert.deepEqual(after?.thread, thread.snapshot());
  });

  it('ignores a garbled line in the middle and unreadable files', async () => {
    const thread = await recordThread('chat-a');
    const file = path.join(storage.path, 'chats', 'chat-a.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, [lines[0], 'not json at all', ...lines.slice(1)].join('\n'));
    writeFileSync(path.join(storage.path, 'chats', 'broken.jsonl'), 'garbage\n');
    const chats = await journal.readAll();
    assert.deepEqual(
      chats.map((c) => c.meta.chatId),
      ['chat-a'],
    );
    assert.deepEqual(chats[0]?.thread, thread.snapshot());
  });

  it('rebuilds an entry whose creating line was lost from the lines after it, and reports the damage', async () => {
    const thread = await recordThread('chat-a');
    const file = path.join(storage.path, 'chats', 'chat-a.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    // Line 1 is the first events batch: turn started, the user entry, the agent entry and its text.
    writeFileSync(
      file,
      [lines[0], '{"t":"events","events":[{"type":"entry_add', ...lines.slice(2)].join('\n'),
    );
    const chat = await journal.read('chat-a');
    assert.deepEqual(chat?.damage, { unreadableLines: 1, rebuiltEntries: 0, snapshotFromPrevious: false });
    // The tool call and the title from the later batch are kept, not dropped with the lost line.
    const kept = chat?.thread.entries.map((e) => e.kind);
    assert.deepEqual(kept, ['tool_call']);
    assert.equal(chat?.thread.state.title, 'Greeting');
    assert.equal(chat?.thread.turns[0]?.status, 'completed');
    assert.deepEqual(chat?.thread.entries[0], thread.snapshot().entries[2]);
  });

  it('rebuilds streamed text and updated tool calls whose entry_added was in a lost line', async () => {
    const thread = new Thread();
    const events: ThreadEvent[] = [];
    thread.onEvent((event) => events.push(event));
    await journal.saveMeta(meta('chat-b', 10));
    thread.startTurn('hello', []);
    thread.applyUpdate(chunk('Hi '));
    await journal.appendEvents('chat-b', events.splice(0));
    thread.applyUpdate(chunk('there'));
    thread.applyUpdate({
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'Run',
      kind: 'execute',
      status: 'pending',
    });
    await journal.appendEvents('chat-b', events.splice(0));
    thread.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' });
    await journal.appendEvents('chat-b', events.splice(0));
    const file = path.join(storage.path, 'chats', 'chat-b.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    const [, agentEntry, toolEntry] = thread.snapshot().entries;

    // The batch that added the agent's message is lost: the text appended later comes back.
    writeFileSync(file, [lines[0], 'garbled', ...lines.slice(2)].join('\n'));
    const lostText = await journal.read('chat-b');
    assert.deepEqual(lostText?.damage, {
      unreadableLines: 1,
      rebuiltEntries: 1,
      snapshotFromPrevious: false,
    });
    assert.deepEqual(lostText?.thread.entries, [
      { kind: 'agent', id: agentEntry?.id, text: 'there', attachments: [] },
      toolEntry,
    ]);

    // The batch that added the tool call is lost: its later update carries the whole entry.
    writeFileSync(file, [lines[0], lines[1], 'garbled', ...lines.slice(3)].join('\n'));
    const lostTool = await journal.read('chat-b');
    assert.deepEqual(lostTool?.damage, {
      unreadableLines: 1,
      rebuiltEntries: 1,
      snapshotFromPrevious: false,
    });
    assert.deepEqual(lostTool?.thread.entries.at(-1), toolEntry);
  });

  it('falls back to the previous journal when a compacted snapshot line is unreadable', async () => {
    const thread = await recordThread('chat-a');
    await journal.compact(meta('chat-a', 30), thread.snapshot());
    const file = path.join(storage.path, 'chats', 'chat-a.jsonl');
    const [metaLine, snapshotLine] = readFileSync(file, 'utf8').trim().split('\n');
    // Damage the new snapshot (as a bad sector would), then keep journaling after it — in a window that read
    // it as it is now (this one would refuse a file that changed under it).
    writeFileSync(file, `${metaLine}\n${(snapshotLine as string).slice(0, 40)}\n`);
    const later = Thread.restore(thread.snapshot());
    const events: ThreadEvent[] = [];
    later.onEvent((event) => events.push(event));
    later.startTurn('after compaction', []);
    journal.dispose();
    const next = new ChatJournal(storage.path);
    await next.read('chat-a');
    await next.appendEvents('chat-a', events);
    assert.equal(next.savingProblem('chat-a'), undefined);
    next.dispose();

    const chat = await journal.read('chat-a');
    assert.deepEqual(chat?.damage, { unreadableLines: 1, rebuiltEntries: 0, snapshotFromPrevious: true });
    assert.deepEqual(chat?.thread.entries.slice(0, 3), thread.snapshot().entries);
    assert.equal(chat?.thread.entries.length, 4);
  });

  it('reports no damage for an intact journal, and deletes the previous journal with the chat', async () => {
    const thread = await recordThread('chat-a');
    await journal.compact(meta('chat-a', 30), thread.snapshot());
    assert.equal((await journal.read('chat-a'))?.damage, undefined);
    await journal.delete('chat-a');
    assert.deepEqual(readdirSync(path.join(storage.path, 'chats')), []);
  });

  it('compacts a journal into one snapshot by write-then-rename', async () => {
    const thread = await recordThread('chat-a');
    await journal.compact(meta('chat-a', 30), thread.snapshot());
    const file = path.join(storage.path, 'chats', 'chat-a.jsonl');
    assert.equal(readFileSync(file, 'utf8').trim().split('\n').length, 2);
    assert.deepEqual((await journal.read('chat-a'))?.thread, thread.snapshot());
  });

  it('restores a thread that continues with new ids and ends a cut-off turn as interrupted', async () => {
    const thread = new Thread();
    const events: ThreadEvent[] = [];
    thread.onEvent((event) => events.push(event));
    thread.startTurn('first', []);
    thread.applyUpdate(chunk('partial'));
    await journal.saveMeta(meta('chat-b', 5));
    await journal.appendEvents('chat-b', events);

    const saved = await journal.read('chat-b');
    assert.ok(saved);
    const restored = Thread.restore(saved.thread);
    assert.deepEqual(
      restored.snapshot().turns.map((t) => [t.id, t.status, t.error?.message]),
      [['t1', 'interrupted', 'VS Code closed during the answer.']],
    );
    const next = restored.startTurn('second', []);
    assert.equal(next.id, 't2');
    assert.deepEqual(
      restored.snapshot().entries.map((e) => e.id),
      ['e1', 'e2', 'e3'],
    );
  });

  it('once closed, writes what was queued before and nothing asked after: no line, meta or compaction', async () => {
    const thread = await recordThread('chat-a');
    const queued = journal.saveMeta(meta('chat-a', 20));
    journal.close();
    await queued;
    const file = path.join(storage.path, 'chats', 'chat-a.jsonl');
    const closed = readFileSync(file, 'utf8');
    assert.equal((await journal.read('chat-a'))?.meta.updatedAt, 20);
    await journal.saveMeta(meta('chat-a', 30));
    const late: ThreadEvent[] = [];
    thread.onEvent((event) => late.push(event));
    thread.applyUpdate({ sessionUpdate: 'session_info_update', title: 'Late' });
    assert.equal(late.length > 0, true);
    await journal.appendEvents('chat-a', late);
    await journal.compact(meta('chat-a', 40), new Thread().snapshot());
    await journal.saveMeta(meta('chat-new', 1));
    await journal.flush();
    assert.equal(readFileSync(file, 'utf8'), closed);
    assert.deepEqual(readdirSync(path.join(storage.path, 'chats')).sort(), [
      'chat-a.jsonl',
      'chat-a.jsonl.lock',
    ]);
    assert.equal((await journal.read('chat-a'))?.thread.state.title, 'Greeting');
  });

  it('keeps the newest chats within the count and size limits and deletes the rest', async () => {
    for (const [id, at] of [
      ['old', 1],
      ['mid', 2],
      ['new', 3],
    ] as const) {
      await journal.saveMeta(meta(id, at));
    }
    assert.deepEqual(await journal.enforce({ maxChats: 2, maxBytes: 1_000_000 }), ['old']);
    assert.deepEqual(
      (await journal.readAll()).map((c) => c.meta.chatId),
      ['new', 'mid'],
    );
    const oneChat = (await journal.read('new'))?.bytes ?? 0;
    assert.deepEqual(await journal.enforce({ maxChats: 10, maxBytes: oneChat }), ['mid']);
    // The active chat is never deleted, whatever its age.
    await journal.saveMeta(meta('ancient', 0));
    assert.deepEqual(await journal.enforce({ maxChats: 1, maxBytes: 1_000_000 }, new Set(['ancient'])), []);
  });

  it('deletes a chat and refuses ids that could leave the folder', async () => {
    await journal.saveMeta(meta('gone', 1));
    await journal.delete('gone');
    assert.equal(await journal.read('gone'), undefined);
    await assert.rejects(journal.saveMeta(meta('../escape', 1)), /Invalid chat id/);
  });
});
