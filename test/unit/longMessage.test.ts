import { strict as assert } from 'node:assert';
import { ChatJournal } from '../../src/core/journal/journal';
import { ChatHarness, testAgent } from './support/chatHarness';
import { ownedPerTest } from '../support/ownedPerTest';

describe('a message over the limit keeps its end, and "Open the whole message" shows it as journaled', () => {
  const owned = ownedPerTest();

  it('keeps the head and the end with a marker between, and opens the journaled text read-only', async () => {
    const chat = owned(new ChatHarness({ agents: [testAgent('a')], maxMessageChars: 10_000 }));
    await chat.ready();
    const prompt = `START ${'x'.repeat(30_000)} FINISH`;
    await chat.send(prompt);

    const entries = chat.controller.viewState().chat?.thread.entries ?? [];
    const answer = entries.filter((entry) => entry.kind === 'agent').at(-1);
    assert.ok(answer && answer.kind === 'agent');
    assert.ok(answer.text.startsWith('You said: START'), 'the head is kept');
    assert.ok(answer.text.endsWith(' FINISH'), 'the end is kept');
    assert.match(answer.text, /characters not shown here: the message is over 10,000 characters; its end follows/);
    // The echo is 10 + prompt characters; the head keeps 10,000 and the end 2,500.
    assert.equal(answer.truncated?.omittedChars, 10 + prompt.length - 10_000 - 2_500);

    await chat.controller.handleMessage({ type: 'open_message', entryId: answer.id });
    // Shutting down writes out what is queued for the journal.
    await chat.controller.shutdown();
    const journaled = await new ChatJournal(chat.storageDir).readAll();
    const saved = journaled[0]?.thread.entries.find((entry) => entry.id === answer.id);
    assert.ok(saved && saved.kind === 'agent');
    assert.deepEqual(chat.readOnlyDocuments, [{ title: `Message ${answer.id}.md`, text: saved.text }]);
    assert.equal(saved.text, answer.text);
  });
});
