/**
 * Issue 4: with `acpAgents.edits.review: ask` an agent's file write opens VS Code's diff editor (the
 * proposal in the read-only `acp-proposed` scheme) and the agent's request waits for Keep or Undo —
 * given in the chat (`answer_review`), with the diff editor's title commands, or on the notification.
 * The diff tab closes once decided.
 */
import { strict as assert } from 'node:assert';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import {
  closeAllEditors,
  eventually,
  proposalDiffTabs,
  type RunningTurn,
  Settings,
  useWorkspaceFolder,
} from './support/harness';
import { useDemoChats } from './support/demoChats';
import { decideProposedHunk } from './support/hunkCommands';

/** What the agent is told after a refusal's message (code -32001): the next step and `data.reason`. */
const DECLINED =
  'The user declined this; do not retry it as is — ask the user how to proceed. data {"reason":"user_declined"}';

type DiffTab = ReturnType<typeof proposalDiffTabs>[number];

const BEFORE = 'a\nb\nc\nd\ne\nf\n';
/** Three hunks: b → B, e → E, G added at the end. */
const PROPOSED = 'a\\nB\\nc\\nd\\nE\\nf\\nG\\n';

describe('edit review: Keep or Undo in the diff editor (issue 4)', () => {
  const suite = useDemoChats();
  const settings = new Settings();

  before(async () => {
    await settings.set('edits.review', 'ask');
  });

  after(async () => {
    await settings.restore();
  });

  beforeEach(async () => {
    await closeAllEditors();
  });

  afterEach(async () => {
    // Nothing may stay pending: undo whatever a failed test left open.
    for (const review of suite.api.writeReviews.pending()) {
      suite.api.writeReviews.answer(review.id, 'undo');
    }
    await closeAllEditors();
  });

  const folder = useWorkspaceFolder('review');

  /** Starts `fs write <file> <text>` and waits until its review is pending with its diff tab open. */
  async function proposeWrite(
    file: string,
    text: string,
  ): Promise<{ running: RunningTurn; id: string; tab: DiffTab }> {
    const running = await suite.begin(`fs write ${file} ${text}`);
    const [review] = await eventually('the edit review to be pending', () => {
      const pending = suite.api.writeReviews.pending();
      return pending.length > 0 && pending;
    });
    assert.ok(review);
    assert.equal(suite.api.writeReviews.pending().length, 1);
    assert.equal(review.path, file);
    const tab = await eventually('the proposal diff tab', () => proposalDiffTabs()[0]);
    assert.equal(proposalDiffTabs().length, 1);
    assert.equal(tab.input.original.scheme, 'acp-proposed');
    assert.equal(tab.input.modified.scheme, 'acp-proposed');
    // Not answered before a decision: the turn runs, the agent has said nothing.
    assert.equal(suite.thread().turns.at(-1)?.status, 'running');
    assert.equal(suite.replyOf(running.turnId), '');
    assert.deepEqual(suite.api.chat.viewState().editReviews, [
      { id: review.id, path: file, isNew: review.isNew },
    ]);
    return { running, id: review.id, tab };
  }

  async function assertDecided(): Promise<void> {
    await eventually('the diff tab to close', () => proposalDiffTabs().length === 0);
    assert.deepEqual(suite.api.writeReviews.pending(), []);
    assert.equal(suite.api.chat.viewState().editReviews, undefined);
  }

  it('opens the diff and writes the file on Keep from the chat (answer_review)', async () => {
    const file = folder.file('keep.txt');
    writeFileSync(file, 'before\n');
    const { running, id, tab } = await proposeWrite(file, 'after\\nmore');

    assert.equal(tab.label, "keep.txt: agent's proposal");
    assert.equal((await vscode.workspace.openTextDocument(tab.input.original)).getText(), 'before\n');
    assert.equal((await vscode.workspace.openTextDocument(tab.input.modified)).getText(), 'after\nmore');
    // The notification follows the diff editor.
    assert.deepEqual(await suite.prompts.waitFor('notify'), [
      {
        kind: 'notify',
        message: 'The agent wants to change keep.txt. Keep the change?',
        choices: ['Keep', 'Undo'],
      },
    ]);
    assert.equal(readFileSync(file, 'utf8'), 'before\n', 'nothing is written before the decision');

    await suite.api.chat.handleMessage({ type: 'answer_review', id, decision: 'keep' });
    const { turn, reply } = await running.done;
    assert.equal(turn.status, 'completed');
    assert.equal(reply, 'wrote 10 chars');
    assert.equal(readFileSync(file, 'utf8'), 'after\nmore');
    await assertDecided();
  });

  it('leaves the file unchanged and tells the agent on Undo from the chat', async () => {
    const file = folder.file('undo.txt');
    writeFileSync(file, 'before\n');
    const { running, id } = await proposeWrite(file, 'after');

    await suite.api.chat.handleMessage({ type: 'answer_review', id, decision: 'undo' });
    const { turn, reply } = await running.done;
    assert.equal(turn.status, 'completed');
    assert.equal(reply, `write error -32001: The user rejected the edit to ${file}. ${DECLINED}`);
    assert.equal(readFileSync(file, 'utf8'), 'before\n');
    await assertDecided();
  });

  const TITLE_COMMANDS = [
    {
      name: 'keeps the edit from the diff editor title command (acpAgents.review.keep)',
      command: 'acpAgents.review.keep',
      proposed: 'kept',
      reply: () => 'wrote 4 chars',
      after: 'kept',
    },
    {
      name: 'undoes the edit from the diff editor title command (acpAgents.review.undo)',
      command: 'acpAgents.review.undo',
      proposed: 'dropped',
      reply: (file: string) => `write error -32001: The user rejected the edit to ${file}. ${DECLINED}`,
      after: 'before\n',
    },
  ];
  for (const { name, command, proposed, reply: expected, after } of TITLE_COMMANDS) {
    it(name, async () => {
      const file = folder.file(`title-${command.split('.').at(-1)}.txt`);
      writeFileSync(file, 'before\n');
      const { running, tab } = await proposeWrite(file, proposed);

      // The editor title button passes the diff's (modified) resource.
      await vscode.commands.executeCommand(command, tab.input.modified);
      const { reply } = await running.done;
      assert.equal(reply, expected(file));
      assert.equal(readFileSync(file, 'utf8'), after);
      await assertDecided();
    });
  }

  it('reviews a new file as a creation and creates it on Keep from the notification', async () => {
    const file = folder.file('created.txt');
    suite.prompts.answerNotify('Keep');
    const running = await suite.begin(`fs write ${file} brand new`);

    const { reply } = await running.done;
    assert.equal(reply, 'wrote 9 chars');
    assert.equal(readFileSync(file, 'utf8'), 'brand new');
    assert.deepEqual(suite.prompts.questions('notify'), [
      {
        kind: 'notify',
        message: 'The agent wants to create created.txt. Keep the change?',
        choices: ['Keep', 'Undo'],
      },
    ]);
    await assertDecided();
  });

  it('reviews a kept file deleted on disk as new again: a stale document does not stand in for the disk', async () => {
    const file = folder.file('recreated.txt');
    suite.prompts.answerNotify('Keep');
    assert.equal((await (await suite.begin(`fs write ${file} first`)).done).reply, 'wrote 5 chars');
    await assertDecided();
    // The write left a (saved, unshown) document of the file in memory; the file goes away outside VS Code.
    assert.ok(vscode.workspace.textDocuments.some((document) => document.uri.fsPath === file));
    rmSync(file);

    const { running, id, tab } = await proposeWrite(file, 'second');
    assert.equal(tab.label, "recreated.txt: agent's proposal (new file)");
    assert.deepEqual(suite.api.writeReviews.pending(), [{ id, path: file, isNew: true }]);
    assert.equal((await vscode.workspace.openTextDocument(tab.input.original)).getText(), '');
    assert.equal(
      (await suite.prompts.waitFor('notify', 2))[1]?.message,
      'The agent wants to create recreated.txt. Keep the change?',
    );

    await suite.api.chat.handleMessage({ type: 'answer_review', id, decision: 'keep' });
    assert.equal((await running.done).reply, 'wrote 6 chars');
    assert.equal(readFileSync(file, 'utf8'), 'second');
    await assertDecided();
  });

  it('shows a new file as "(new file)" and creates nothing on Undo', async () => {
    const file = folder.file('not-created.txt');
    const { running, id, tab } = await proposeWrite(file, 'never');
    assert.equal(tab.label, "not-created.txt: agent's proposal (new file)");
    assert.deepEqual(suite.api.writeReviews.pending(), [{ id, path: file, isNew: true }]);
    assert.equal((await vscode.workspace.openTextDocument(tab.input.original)).getText(), '');

    await suite.api.chat.handleMessage({ type: 'answer_review', id, decision: 'undo' });
    const { reply } = await running.done;
    assert.equal(reply, `write error -32001: The user rejected the edit to ${file}. ${DECLINED}`);
    assert.equal(existsSync(file), false);
    await assertDecided();
  });

  /**
   * A write waiting for review, decided one hunk at a time in the file's own editor: the editor shows the
   * write's hunks on the old text, Keep / Undo on each; the write that lands is the mix, byte-exact, through
   * the edit review's one answer. Attacked: the file rewritten while the write waits, a folder on its path or
   * the file itself swapped for a link — nothing is written, the bytes there and outside unchanged.
   */
  describe('one hunk at a time in its editor', () => {
    let outside: string;

    beforeEach(() => {
      outside = mkdtempSync(join(tmpdir(), 'acp-proposed-outside-'));
    });

    afterEach(() => {
      rmSync(outside, { recursive: true, force: true });
    });

    /** Starts the agent's write of `PROPOSED` to `file` (holding `BEFORE`) and waits for its review. */
    async function proposeThreeHunks(file: string): Promise<RunningTurn> {
      writeFileSync(file, BEFORE);
      const running = await suite.begin(`fs write ${file} ${PROPOSED}`);
      await eventually('the write to wait for review', () => suite.api.writeReviews.pending().length === 1);
      return running;
    }

    it('shows the waiting write’s hunks in the file and writes the mix of the kept ones, byte-exact', async () => {
      const file = folder.file('t.txt');
      const running = await proposeThreeHunks(file);
      await vscode.window.showTextDocument(vscode.Uri.file(file));
      const shown = await eventually('the proposed hunks in the editor', () => {
        const views = suite.api.hunks.editors.proposedHunksOf(file);
        return views?.length === 3 && views;
      });
      assert.deepEqual(
        shown.map((view) => [view.removed, view.added]),
        [
          [{ first: 1, last: 1 }, ['B']],
          [{ first: 4, last: 4 }, ['E']],
          [undefined, ['G']],
        ],
      );
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
        'vscode.executeCodeLensProvider',
        vscode.Uri.file(file),
      );
      assert.deepEqual(
        lenses
          .filter((lens) => lens.command?.command.startsWith('acpAgents.hunks.'))
          .map((lens) => lens.command?.title),
        ['Keep', 'Undo', 'Keep', 'Undo', 'Keep', 'Undo'],
      );
      const run = (index: number, how: 'keep' | 'undo'): Thenable<unknown> =>
        decideProposedHunk(file, shown[index]!, how);
      await run(0, 'keep');
      await run(1, 'undo');
      assert.equal(readFileSync(file, 'utf8'), BEFORE, 'nothing is written while a hunk is left');
      await eventually('two hunks decided', () => suite.api.hunks.editors.proposedHunksOf(file)?.length === 1);
      await run(2, 'keep');
      const { reply } = await running.done;
      assert.equal(reply, 'wrote 14 chars');
      assert.ok(readFileSync(file).equals(Buffer.from('a\nB\nc\nd\ne\nf\nG\n')), readFileSync(file, 'utf8'));
      assert.deepEqual(suite.api.writeReviews.pending(), []);
      await eventually('no hunks left shown', () => suite.api.hunks.editors.proposedHunksOf(file) === undefined);
    });

    it('a key pressed as the file opens decides the waiting write’s hunk, not an earlier turn’s change there', async () => {
      const [file, other] = [folder.file('earlier.txt'), folder.file('other.txt')];
      writeFileSync(file, BEFORE);
      writeFileSync(other, 'line\n'.repeat(90_000));
      // An earlier turn changed the file and another one itself; their changes are left to decide.
      const OWN = 'a\nb\nc\nd\ne\nf\nown\n';
      await (await suite.begin(`own write ${file} ${OWN.replaceAll('\n', '\\n')} ; append ${other} x`)).done;
      await eventually('its change to decide', () => suite.api.hunks.review.files().length === 2);
      const running = await suite.begin(`fs write ${file} ${PROPOSED}`);
      await eventually('the write to wait for review', () => suite.api.writeReviews.pending().length === 1);
      // The other (long) file open beside: its hunks are read again before the editor draws the write's.
      await vscode.window.showTextDocument(vscode.Uri.file(other), { viewColumn: vscode.ViewColumn.Two });
      await eventually('its hunk drawn', () => suite.api.hunks.editors.hunksOf(other)?.length === 1);
      // Undo at once, as a quick key does: the editor draws the write's hunks a moment later.
      await vscode.window.showTextDocument(vscode.Uri.file(file), { viewColumn: vscode.ViewColumn.One });
      await vscode.commands.executeCommand('acpAgents.hunks.undo');
      await eventually(
        'the write’s first hunk decided',
        () => suite.api.hunks.editors.proposedHunksOf(file)?.length === 2,
      );
      assert.equal(readFileSync(file, 'utf8'), OWN, 'the earlier turn’s change is left as it was');
      assert.ok(suite.api.hunks.review.files().some((f) => f.path === file));
      // Next change goes to the other file's: this one shows the write's hunks, not the turn's under them.
      await vscode.commands.executeCommand('acpAgents.hunks.next');
      assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, other);
      suite.api.hunks.proposed.decideAll(file, 'keep');
      await running.done;
      assert.equal(readFileSync(file, 'utf8'), 'a\nb\nc\nd\nE\nf\nG\n');
    });

    it('writes nothing when the file was rewritten while the write waited (every order of decisions)', async () => {
      for (const kept of [[0], [0, 1, 2], [2]]) {
        const file = folder.file(`rewritten-${kept.join('')}.txt`);
        const running = await proposeThreeHunks(file);
        writeFileSync(file, 'rewritten by someone else\n');
        for (const index of [0, 1, 2]) {
          suite.api.hunks.proposed.decide(file, index, kept.includes(index) ? 'keep' : 'undo');
        }
        const { reply } = await running.done;
        assert.match(
          reply,
          /write error -32001: .*was changed while the edit waited for review; nothing was written/,
        );
        assert.equal(readFileSync(file, 'utf8'), 'rewritten by someone else\n');
      }
    });

    it('never writes through a folder swapped for a link to outside after the hunks were shown', async () => {
      mkdirSync(folder.file('sub'));
      const file = folder.file('sub/t.txt');
      const running = await proposeThreeHunks(file);
      await vscode.window.showTextDocument(vscode.Uri.file(file));
      await eventually('the proposed hunks', () => suite.api.hunks.editors.proposedHunksOf(file)?.length === 3);
      // The folder goes, and a link to an outside folder holding the same bytes takes its place.
      writeFileSync(join(outside, 't.txt'), BEFORE);
      renameSync(folder.file('sub'), folder.file('moved'));
      symlinkSync(outside, folder.file('sub'));
      suite.api.hunks.proposed.decide(file, 0, 'keep');
      suite.api.hunks.proposed.decide(file, 1, 'undo');
      suite.api.hunks.proposed.decide(file, 2, 'keep');
      const { reply } = await running.done;
      assert.match(
        reply,
        /write error -32001: .*changed while the edit waited for review \(.*sub\/ is now a link to a folder outside the workspace\)/,
      );
      assert.equal(readFileSync(join(outside, 't.txt'), 'utf8'), BEFORE, 'the outside file is unchanged');
      assert.equal(readFileSync(folder.file('moved/t.txt'), 'utf8'), BEFORE);
    });

    it('never writes through the file swapped for a link (to a file outside) while the write waited', async () => {
      const file = folder.file('t.txt');
      const running = await proposeThreeHunks(file);
      const target = join(outside, 'target.txt');
      writeFileSync(target, BEFORE);
      rmSync(file);
      symlinkSync(target, file);
      suite.api.hunks.proposed.decideAll(file, 'keep');
      const { reply } = await running.done;
      assert.match(reply, /write error -32001: .*changed while the edit waited for review/);
      assert.equal(readFileSync(target, 'utf8'), BEFORE, 'the outside file is unchanged');
      assert.ok(lstatSync(file).isSymbolicLink(), 'the link is left as it is');
    });
  });
});
