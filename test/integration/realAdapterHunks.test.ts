/**
 * Hunk review with a real agent (issue 33's last bar): the unmodified claude-code-acp 0.16.2 adapter
 * (Claude Code inside, its model the scripted stub: support/realAdapterSuite.ts) changes 3 hunks in 2
 * files in one turn, once as a client-fs agent (two Write calls through fs/write_text_file) and once as a
 * shell-writing agent (one Bash command run through terminal/* that rewrites both files: the extension only
 * sees them change). Navigation visits every hunk in order with the overlay and the announcement agreeing;
 * two hunks kept and one undone leave each file's bytes the expected mix (CRLF and a missing final newline
 * kept) and the card's counts follow; a note asked on a hunk reaches the model's next request with the file
 * and its line. With the default review (`edits.review: ask`) each write's own hunks are decided one by one
 * while it waits, and the mix lands.
 */
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import type { TurnFileChangeMessage } from '../../src/protocol';
import {
  activeThread,
  begin,
  closeAllEditors,
  eventually,
  installPrompts,
  settled,
  Settings,
  TempFolder,
  toolCallsOf,
  type RunningTurn,
} from './support/harness';
import { lastUserText, modelTurns } from './support/realAdapter';
import { useRealAdapter } from './support/realAdapterSuite';
import { decideProposedHunk } from './support/hunkCommands';

/** CRLF line ends and no final newline: two hunks (lines 2 and 6), the last one on the unterminated line. */
const A_BEFORE = 'one\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix';
const A_AFTER = 'one\r\nTWO\r\nthree\r\nfour\r\nfive\r\nSIX';
/** One hunk: a line added at the end. */
const B_BEFORE = 'x\ny\n';
const B_AFTER = 'x\ny\nz\n';
/** The mix: a.txt's first hunk kept and its second undone, b.txt's hunk kept. */
const A_MIX = 'one\r\nTWO\r\nthree\r\nfour\r\nfive\r\nsix';
const B_MIX = B_AFTER;

/** Where navigation should arrive, in order: the file, the 0-based line, what the overlay and announcement say. */
interface Stop {
  readonly file: 'a' | 'b';
  readonly line: number;
  readonly status: string;
  readonly announced: string;
}

const THREE_STOPS: readonly Stop[] = [
  {
    file: 'a',
    line: 1,
    status: 'Change 1 of 3 · file 1 of 2',
    announced: 'Change 1 of 3, 1 line added, 1 removed, in a.txt, file 1 of 2',
  },
  {
    file: 'a',
    line: 5,
    status: 'Change 2 of 3 · file 1 of 2',
    announced: 'Change 2 of 3, 1 line added, 1 removed, in a.txt, file 1 of 2',
  },
  {
    file: 'b',
    line: 2,
    status: 'Change 3 of 3 · file 2 of 2',
    announced: 'Change 3 of 3, 1 line added, in b.txt, file 2 of 2',
  },
];

describe('hunk review with the real claude-code-acp adapter: a client-fs and a shell-writing turn', function () {
  this.timeout(120_000);

  const suite = useRealAdapter('real adapter hunks');
  let folder: TempFolder;
  let a = '';
  let b = '';

  beforeEach(async () => {
    await closeAllEditors();
    folder = new TempFolder('real-hunks');
    a = folder.file('a.txt');
    b = folder.file('b.txt');
    writeFileSync(a, A_BEFORE);
    writeFileSync(b, B_BEFORE);
  });

  afterEach(() => folder.dispose());

  /** Runs the turn, allowing each of its `permissions` tool calls as they ask, one after the other. */
  async function allowEach(running: RunningTurn, permissions: number): Promise<void> {
    for (let answered = 0; answered < permissions; answered++) {
      const call = await suite.pendingPermission(running);
      await suite.answer(call, 'allow');
    }
    const { turn } = await settled('the turn to end', running.done);
    assert.equal(turn.status, 'completed');
    assert.equal(turn.stopReason, 'end_turn');
  }

  /** The turn's change card once final, with this test's files by name. */
  function card(
    turnId: string,
  ): Record<string, Pick<TurnFileChangeMessage, 'added' | 'removed' | 'decision'>> {
    const files = activeThread(suite.api).turns.find((turn) => turn.id === turnId)?.changes?.files ?? [];
    return Object.fromEntries(
      files
        .filter((file) => file.path === a || file.path === b)
        .map((file) => [
          file.path === a ? 'a' : 'b',
          { added: file.added, removed: file.removed, decision: file.decision },
        ]),
    );
  }

  /** Steps with the hunk review's next / previous change command and checks where it arrived. */
  async function step(command: 'next' | 'previous', stop: Stop): Promise<void> {
    await vscode.commands.executeCommand(`acpAgents.hunks.${command}`);
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.fsPath, stop.file === 'a' ? a : b, `${command} to ${stop.status}`);
    assert.equal(editor.selection.active.line, stop.line, `${command} to ${stop.status}`);
    assert.equal(suite.api.hunks.overlay.announced, stop.announced);
    // The status bar follows the cursor a moment later (it is computed again on the selection's change).
    await eventually(
      `the status bar to say ${stop.status}`,
      () => suite.api.hunks.overlay.status === stop.status,
    );
  }

  /**
   * The half keep every turn gets: navigation visits the 3 hunks in order (and wraps back), then a.txt's
   * second hunk is undone at the cursor (as the keyboard does) and its first kept, as b.txt's, by its
   * CodeLens; the bytes after are the mix and the card's counts follow.
   */
  async function reviewHalfKeep(turnId: string): Promise<void> {
    await eventually('the card with both files to decide', () => {
      const shown = card(turnId);
      return shown.a?.decision === 'pending' && shown.b?.decision === 'pending';
    });
    assert.deepEqual(card(turnId), {
      a: { added: 2, removed: 2, decision: 'pending' },
      b: { added: 1, removed: 0, decision: 'pending' },
    });
    assert.deepEqual(
      suite.api.hunks.review.files().map((file) => file.path),
      [a, b],
    );
    for (const stop of THREE_STOPS) {
      await step('next', stop);
    }
    await step('next', THREE_STOPS[0]!); // round again to the first
    await step('previous', THREE_STOPS[2]!);
    await step('previous', THREE_STOPS[1]!);
    await step('previous', THREE_STOPS[0]!);

    // At change 2 (a.txt's last, unterminated line) while change 1 still waits: Undo at the cursor, as the
    // keyboard does; only that hunk goes back.
    await step('next', THREE_STOPS[1]!);
    await vscode.commands.executeCommand('acpAgents.hunks.undo');
    await bytesBecome(a, A_MIX);
    await eventually('the card to count what is left of a.txt', () => card(turnId).a?.added === 1);
    assert.deepEqual(card(turnId).a, { added: 1, removed: 1, decision: 'pending' });
    await eventually('a.txt to show one hunk left', () => suite.api.hunks.editors.hunksOf(a)?.length === 1);
    // Its other hunk by its CodeLens's command and arguments (a click): Keep writes nothing; with nothing
    // left to decide the card marks a.txt kept.
    const [left] = suite.api.hunks.editors.hunksOf(a) ?? [];
    assert.equal(left?.anchor, 1);
    await vscode.commands.executeCommand('acpAgents.hunks.keep', a, left.index, left.hunk);
    await eventually('the card to mark a.txt kept', () => card(turnId).a?.decision === 'kept');
    assert.deepEqual(card(turnId).a, { added: 1, removed: 1, decision: 'kept' });
    assert.ok(readFileSync(a).equals(Buffer.from(A_MIX)), 'Keep writes nothing');

    // b.txt's hunk by its CodeLens, with the command and arguments a click runs.
    await vscode.window.showTextDocument(vscode.Uri.file(b));
    const lens = await eventually('the Keep CodeLens on b.txt', async () => {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
        'vscode.executeCodeLensProvider',
        vscode.Uri.file(b),
      );
      return lenses.find((candidate) => candidate.command?.command === 'acpAgents.hunks.keep');
    });
    assert.equal(lens.range.start.line, 2);
    await vscode.commands.executeCommand(lens.command!.command, ...(lens.command!.arguments ?? []));
    await eventually('the card to mark b.txt kept', () => card(turnId).b?.decision === 'kept');
    assert.deepEqual(card(turnId).b, { added: 1, removed: 0, decision: 'kept' });

    // Byte-exact: CRLF and the missing final newline kept; the editors show the same.
    assert.ok(readFileSync(a).equals(Buffer.from(A_MIX)), JSON.stringify(readFileSync(a, 'latin1')));
    assert.ok(readFileSync(b).equals(Buffer.from(B_MIX)), JSON.stringify(readFileSync(b, 'latin1')));
    const documentOf = (path: string) =>
      vscode.workspace.textDocuments.find((doc) => doc.uri.fsPath === path);
    assert.equal(documentOf(a)?.getText(), A_MIX);
    assert.equal(documentOf(a)?.isDirty, false);
    assert.deepEqual(suite.api.hunks.review.files(), [], 'nothing is left to decide');
  }

  it('client-fs: two Write calls in one turn (3 hunks in 2 files) are visited in order and half kept, byte-exact', async () => {
    await suite.openChat();
    const { stub } = suite;
    stub.setScript({
      kind: 'steps',
      steps: [
        { kind: 'write', path: a, content: A_AFTER, intro: 'First a.txt.' },
        { kind: 'write', path: b, content: B_AFTER, intro: 'Then b.txt.' },
      ],
      finalText: (results) => `Both written: ${results.join(' ')}`,
    });
    const asked = stub.requests.length;
    const running = await begin(suite.api, 'Change both files');
    await allowEach(running, 2);

    assert.deepEqual(modelTurns(stub, asked), ['mcp__acp__Write', 'mcp__acp__Write', 'text']);
    const tools = toolCallsOf(suite.api, running.turnId);
    assert.deepEqual(
      tools.map((tool) => [tool.title, tool.status, tool.permission?.selectedOptionId]),
      [
        [`Write ${a}`, 'completed', 'allow'],
        [`Write ${b}`, 'completed', 'allow'],
      ],
    );
    // Through fs/write_text_file, exactly as the model wrote them.
    assert.ok(readFileSync(a).equals(Buffer.from(A_AFTER)), JSON.stringify(readFileSync(a, 'latin1')));
    assert.ok(readFileSync(b).equals(Buffer.from(B_AFTER)));
    await reviewHalfKeep(running.turnId);
  });

  it('client-fs with each write waiting for review (the default): its hunks decided one by one land as the mix, byte-exact', async () => {
    const reviewSetting = new Settings();
    await reviewSetting.set('edits.review', 'ask');
    try {
      await suite.openChat();
      const { stub, api } = suite;
      stub.setScript({
        kind: 'steps',
        steps: [
          { kind: 'write', path: a, content: A_AFTER, intro: '[a] ' },
          { kind: 'write', path: b, content: B_AFTER, intro: '[b] ' },
        ],
        finalText: (results) => results.join(' | '),
      });
      const running = await begin(api, 'Change both files');
      /** Allows the next write, opens its file and decides its proposed hunks as their CodeLenses do. */
      const review = async (file: string, decisions: readonly ('keep' | 'undo')[]): Promise<void> => {
        await suite.answer(await suite.pendingPermission(running), 'allow');
        await eventually('the write to wait for review', () => api.writeReviews.pending().length === 1);
        await vscode.window.showTextDocument(vscode.Uri.file(file));
        const shown = await eventually('its proposed hunks in the editor', () => {
          const views = api.hunks.editors.proposedHunksOf(file);
          return views?.length === decisions.length && views;
        });
        // A waiting write's hunks keep their indexes while others are decided.
        for (const view of shown) {
          await decideProposedHunk(file, view, decisions[view.index]!);
        }
      };
      await review(a, ['keep', 'undo']);
      await bytesBecome(a, A_MIX);
      await review(b, ['keep']);
      const { turn, reply } = await settled('the turn to end', running.done);
      assert.equal(turn.status, 'completed');
      // The adapter tells the model each write succeeded (ACP's write has no way to say "partly").
      assert.equal(
        reply,
        `[a] [b] The file ${a} has been updated successfully. | The file ${b} has been updated successfully.`,
      );
      await bytesBecome(a, A_MIX);
      await bytesBecome(b, B_AFTER);
      // The card lists what landed: a.txt's kept hunk, b.txt's line.
      await eventually('the card', () => card(turn.id).b?.decision === 'pending');
      assert.deepEqual(card(turn.id), {
        a: { added: 1, removed: 1, decision: 'pending' },
        b: { added: 1, removed: 0, decision: 'pending' },
      });
    } finally {
      await reviewSetting.restore();
    }
  });

  it('shell-writing: one Bash command rewriting both files through terminal/* is half kept the same, byte-exact', async () => {
    await suite.openChat();
    const { stub } = suite;
    // printf writes the CRLF and leaves out the final newline; the extension only sees the files change.
    const command = `printf 'one\\r\\nTWO\\r\\nthree\\r\\nfour\\r\\nfive\\r\\nSIX' > '${a}' && printf 'x\\ny\\nz\\n' > '${b}'`;
    stub.setScript({
      kind: 'steps',
      steps: [{ kind: 'bash', command, description: 'Rewrite both files', intro: 'One command.' }],
      finalText: (results) => `Ran: ${results.join(' ')}`,
    });
    const asked = stub.requests.length;
    const running = await begin(suite.api, 'Rewrite both files');
    await allowEach(running, 1);

    assert.deepEqual(modelTurns(stub, asked), ['mcp__acp__Bash', 'text']);
    const [tool] = toolCallsOf(suite.api, running.turnId);
    assert.equal(tool?.toolKind, 'execute');
    assert.equal(tool?.content[0]?.type, 'terminal');
    assert.ok(readFileSync(a).equals(Buffer.from(A_AFTER)), JSON.stringify(readFileSync(a, 'latin1')));
    assert.ok(readFileSync(b).equals(Buffer.from(B_AFTER)));
    await reviewHalfKeep(running.turnId);
  });

  it('the keyboard Undo right as a changed file opens acts on the change the status bar names', async () => {
    await suite.openChat();
    suite.stub.setScript({ kind: 'steps', steps: [{ kind: 'write', path: b, content: B_AFTER }] });
    const running = await begin(suite.api, 'Change b.txt');
    await allowEach(running, 1);
    await eventually('b.txt to decide', () => card(running.turnId).b?.decision === 'pending');
    // A key pressed at once, as a quick user does: the editor draws the file's hunks a moment later.
    await vscode.window.showTextDocument(vscode.Uri.file(b));
    await vscode.commands.executeCommand('acpAgents.hunks.undo');
    await bytesBecome(b, B_BEFORE);
    await eventually('the card to mark b.txt undone', () => card(running.turnId).b?.decision === 'undone');
  });

  it('a note asked on a hunk reaches the model with the next prompt, with the file and its line', async () => {
    await suite.openChat();
    const { stub, api } = suite;
    stub.setScript({ kind: 'steps', steps: [{ kind: 'write', path: a, content: A_AFTER }] });
    const running = await begin(api, 'Change a.txt');
    await allowEach(running, 1);
    await eventually('a.txt to decide', () => card(running.turnId).a?.decision === 'pending');
    await step('next', {
      file: 'a',
      line: 1,
      status: 'Change 1 of 2 · file 1 of 1',
      announced: 'Change 1 of 2, 1 line added, 1 removed, in a.txt, file 1 of 1',
    });
    await step('next', {
      file: 'a',
      line: 5,
      status: 'Change 2 of 2 · file 1 of 1',
      announced: 'Change 2 of 2, 1 line added, 1 removed, in a.txt, file 1 of 1',
    });

    // "Ask for a change…" at the cursor's hunk; its input box answered through the prompts seam.
    const prompts = installPrompts(api).answerText('keep it lowercase');
    try {
      await vscode.commands.executeCommand('acpAgents.hunks.askForChange');
    } finally {
      prompts.restore();
    }
    assert.deepEqual(
      prompts.questions('text').map((question) => question.title),
      ['Ask for a change: a.txt, line 6'],
    );
    const chips = await eventually('the note on the composer', () => api.chat.viewState().attachments);
    assert.deepEqual(
      chips.map((chip) => chip.name),
      ['Change a.txt:6'],
    );

    // Sent as the chat view sends its composer: the text with the chips.
    stub.setScript({ kind: 'text', text: 'Will do.' });
    const asked = stub.requests.length;
    await api.chat.handleMessage({ type: 'send', text: 'Please see my note', attachments: [...chips] });
    await eventually('the model to be asked', () => modelTurns(stub, asked).length > 0);
    const request = stub.requests
      .slice(asked)
      .find((entry) => entry.path === '/v1/messages' && (entry.body?.tools?.length ?? 0) > 0)?.body;
    assert.ok(request);
    const said = lastUserText(request);
    assert.ok(said.includes('Please see my note'), said);
    const uri = `${pathToFileURL(a).href}#L6-L6`;
    assert.ok(
      said.includes(
        `<context ref="${uri}">\nRequested change in ${a}, line 6: keep it lowercase\n\nThe line now:\nSIX\n</context>`,
      ),
      said,
    );
    assert.equal(api.chat.viewState().attachments, undefined, 'the note left the composer with the message');
  });
});

/** Waits until `path` holds exactly `expected`'s bytes; fails showing what it holds. */
async function bytesBecome(path: string, expected: string): Promise<void> {
  await eventually(
    `${path} to be ${JSON.stringify(expected)}`,
    () => readFileSync(path).equals(Buffer.from(expected)),
    10_000,
  ).catch(() => {
    assert.equal(JSON.stringify(readFileSync(path, 'latin1')), JSON.stringify(expected));
  });
}
