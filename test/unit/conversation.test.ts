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
});
