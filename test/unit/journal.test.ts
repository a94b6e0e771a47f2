import { strict as assert } from 'node:assert';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { ChatJournal, type ChatMeta } from '../../src/core/journal';
import { Thread } from '../../src/core/thread';
import type { ThreadEvent } from '../../src/core/threadTypes';

function chunk(text: string): acp.SessionUpdate {
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } };
}

function meta(chatId: string, updatedAt: number, extra: Partial<ChatMeta> = {}): ChatMeta {
  return { chatId, agentId: 'demo', createdAt: 1, updatedAt, ...extra };
}

describe('chat journal', () => {
  let dir: string;
  let journal: ChatJournal;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-journal-'));
    journal = new ChatJournal(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

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
    const file = path.join(dir, 'chats', 'chat-a.jsonl');
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
    const file = path.join(dir, 'chats', 'chat-a.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, [lines[0], 'not json at all', ...lines.slice(1)].join('\n'));
    writeFileSync(path.join(dir, 'chats', 'broken.jsonl'), 'garbage\n');
    const chats = await journal.readAll();
    assert.deepEqual(
      chats.map((c) => c.meta.chatId),
      ['chat-a'],
    );
    assert.deepEqual(chats[0]?.thread, thread.snapshot());
  });

  it('compacts a journal into one snapshot by write-then-rename', async () => {
    const thread = await recordThread('chat-a');
    await journal.compact(meta('chat-a', 30), thread.snapshot());
    const file = path.join(dir, 'chats', 'chat-a.jsonl');
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
