import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MAX_NOTE_CHARS, noteAttachment, noteOf } from '../../../src/features/hunkReview/chat/feedbackNotes';
import { ChatHarness, testAgent, until } from '../support/chatHarness';
import { gitChangeReview } from '../support/oneStore';

describe('feedback notes: "Ask for a change…" goes to the agent with the next message', () => {
  let chat: ChatHarness | undefined;

  afterEach(async () => {
    await chat?.dispose();
    chat = undefined;
  });

  it('a note on lines of a file reaches the agent as a resource with the file, the lines and the request', async () => {
    chat = new ChatHarness({
      agents: [testAgent('a')],
      changes: (dir, storage) => gitChangeReview(dir, storage, () => undefined),
      traceProtocol: true,
    });
    const file = path.join(chat.dir, 'calc.ts');
    writeFileSync(file, 'const a = 1;\r\nconst b = 2;\r\nconst c = 3;\r\n');
    const first = noteAttachment({ path: file, startLine: 2, endLine: 3, note: 'use let for "b" and c' });
    const second = noteAttachment({ path: file, startLine: 1, endLine: 1, note: 'rename a' });
    assert.equal(first.name, 'Change calc.ts:2-3');
    await chat.ready();
    await chat.controller.handleMessage({ type: 'send', text: 'please', attachments: [first, second] });
    const said = `resource ${pathToFileURL(file).href}#L2-L3`;
    await until(() => chat!.transcript().includes(said), 'the agent names the note');
    assert.ok(chat.transcript().includes(`resource ${pathToFileURL(file).href}#L1-L1`), 'both notes go');
    const prompt = chat.logger.lines.find(
      (line) => line.level === 'trace' && line.message.includes('"session/prompt"'),
    )?.message;
    assert.ok(
      prompt?.includes(
        `Requested change in ${JSON.stringify(file).slice(1, -1)}, lines 2-3: use let for \\"b\\" and c`,
      ),
      prompt,
    );
    assert.ok(prompt?.includes('const b = 2;\\nconst c = 3;'), 'the lines as they are now go with it');
  });

  it('reads back only a well-formed note, cut to its bound', () => {
    const long = noteAttachment({
      path: '/w/a.ts',
      startLine: 1,
      endLine: 1,
      note: 'x'.repeat(MAX_NOTE_CHARS + 50),
    });
    assert.equal(noteOf(long)?.note.length, MAX_NOTE_CHARS);
    assert.equal(noteOf({ uri: 'acp-note:not-json', name: 'x' }), undefined);
    const backwards = Buffer.from(
      JSON.stringify({ path: '/w/a.ts', startLine: 3, endLine: 1, note: 'n' }),
    ).toString('base64url');
    assert.equal(noteOf({ uri: `acp-note:${backwards}`, name: 'x' }), undefined);
    const relative = Buffer.from(
      JSON.stringify({ path: 'a.ts', startLine: 1, endLine: 1, note: 'n' }),
    ).toString('base64url');
    assert.equal(noteOf({ uri: `acp-note:${relative}`, name: 'x' }), undefined);
  });
});
