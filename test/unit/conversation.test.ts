import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ChatJournal } from '../../src/core/journal/journal';
import { Conversation } from '../../src/chat/conversation';
import { RecordingLogger } from './support/testAgent';

describe('conversation journaling', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-conv-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('journals turns as they happen and compacts the journal into a snapshot after enough appends', async () => {
    const journal = new ChatJournal(dir);
    const { chat, saved } = Conversation.create('c1', 'demo', {
      journal,
      logger: new RecordingLogger(),
      compactAfterAppends: 3,
    });
    await saved;
    const file = path.join(dir, 'chats', 'c1.jsonl');
    const kinds = (): string[] =>
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { t: string }).t);

    const turn = chat.thread.startTurn('hello', []);
    chat.thread.applyUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hi' } });
    await chat.flush();
    // meta, meta (touched by the turn start), the turn-start batch, the chunk batch
    assert.deepEqual(kinds(), ['meta', 'meta', 'events', 'events']);

    chat.thread.endTurn(turn.id, { status: 'completed', stopReason: 'end_turn' });
    await chat.flush();
    await journal.flush();
    // The third append came with no turn running: the file is rewritten as meta + snapshot.
    assert.deepEqual(kinds(), ['meta', 'snapshot']);
    assert.deepEqual((await journal.read('c1'))?.thread, chat.thread.snapshot());
    assert.equal(chat.title, 'hello');
    chat.dispose();
  });

  it('follows the thread for its title, worked out once per change: the chat list asks every chat at every change', async () => {
    const journal = new ChatJournal(dir);
    const { chat, saved } = Conversation.create('c2', 'demo', { journal, logger: new RecordingLogger() });
    await saved;
    let copies = 0;
    const snapshot = chat.thread.snapshot.bind(chat.thread);
    chat.thread.snapshot = () => (copies++, snapshot());
    const titles = (): string[] => [chat.title, chat.title, chat.title];
    assert.deepEqual(titles(), ['New chat', 'New chat', 'New chat']);
    assert.equal(copies, 1, 'the transcript copied once for three asks');
    const long = 'Why does the parser   drop the last token when the input ends in a comment? It should not.';
    const turn = chat.thread.startTurn(long, []);
    assert.equal(chat.title, `${long.replace(/\s+/g, ' ').slice(0, 59)}…`);
    chat.thread.setState('title', 'Parser drops the last token');
    assert.deepEqual(titles(), Array(3).fill('Parser drops the last token'));
    chat.rename('Mine');
    assert.equal(chat.title, 'Mine');
    chat.thread.endTurn(turn.id, { status: 'completed', stopReason: 'end_turn' });
    assert.equal(copies, 3, 'worked out again only after the thread changed');
    await chat.flush();
    chat.dispose();
  });
});
