import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { noteAttachment } from '../../../src/features/hunkReview/chat/feedbackNotes';
import { ChatHarness, testAgent, until } from '../support/chatHarness';
import { gitChangeReview } from '../support/oneStore';

describe('feedback notes on the composer, followed for the editor’s comment threads', () => {
  let chat: ChatHarness | undefined;

  afterEach(async () => {
    await chat?.dispose();
    chat = undefined;
  });

  async function readyChat(): Promise<{ chat: ChatHarness; file: string; changes: () => number }> {
    const made = new ChatHarness({
      agents: [testAgent('a')],
      changes: (dir, storage) => gitChangeReview(dir, storage, () => undefined),
    });
    chat = made;
    const file = path.join(made.dir, 'calc.ts');
    writeFileSync(file, 'const a = 1;\nconst b = 2;\n');
    let changes = 0;
    made.notes.onDidChange(() => changes++);
    await made.ready();
    return { chat: made, file, changes: () => changes };
  }

  /** The chips the view shows now: the last snapshot's, with the chips added since. */
  function chips(made: ChatHarness): string[] {
    const snapshots = made.view.messages.flatMap((m, at) => (m.type === 'snapshot' ? [at] : []));
    const last = snapshots.at(-1) ?? -1;
    const base =
      last === -1
        ? []
        : ((made.view.messages[last] as { view: { attachments?: { name: string }[] } }).view.attachments ??
          []);
    const added = made.view.messages
      .slice(last + 1)
      .flatMap((m) => (m.type === 'add_attachment' ? [m.attachment] : []));
    return [...base, ...added].map((chip) => chip.name);
  }

  it('lists a note put on the composer, and loses it when the user removes the chip', async () => {
    const { chat: made, file, changes } = await readyChat();
    const chip = noteAttachment({ path: file, startLine: 2, endLine: 2, note: 'use let' });
    made.controller.addAttachment(chip);
    assert.deepEqual(
      made.notes.notes().map((collected) => collected.note.note),
      ['use let'],
    );
    const before = changes();
    await made.controller.handleMessage({ type: 'remove_attachment', uri: chip.uri });
    assert.ok(changes() > before, 'the removal is told');
    assert.deepEqual(made.notes.notes(), []);
  });

  it('an edited note replaces its chip, a deleted one takes it off the composer (the view is told)', async () => {
    const { chat: made, file } = await readyChat();
    const chip = noteAttachment({ path: file, startLine: 1, endLine: 2, note: 'rename' });
    made.controller.addAttachment(chip);
    made.notes.replace(chip.uri, { path: file, startLine: 1, endLine: 2, note: 'rename a to total' });
    assert.deepEqual(
      made.notes.notes().map((collected) => collected.note.note),
      ['rename a to total'],
    );
    assert.deepEqual(chips(made), ['Change calc.ts:1-2']);
    const [edited] = made.notes.notes();
    made.notes.remove(edited!.uri);
    assert.deepEqual(made.notes.notes(), []);
    assert.deepEqual(chips(made), []);
  });

  it('a note sent with the message is gone from the list', async () => {
    const { chat: made, file } = await readyChat();
    const chip = noteAttachment({ path: file, startLine: 1, endLine: 1, note: 'rename a' });
    made.controller.addAttachment(chip);
    await made.controller.handleMessage({ type: 'send', text: 'please', attachments: [chip] });
    await until(() => made.notes.notes().length === 0, 'the note sent');
    await until(() => made.transcript().includes('#L1-L1'), 'the agent got it');
  });
});
