/**
 * A real peer inside the real extension host: the unmodified @zed-industries/claude-code-acp 0.16.2
 * adapter (a devDependency; Claude Code inside) configured in `acpAgents.agents` and started by the
 * extension like any user's agent, its model replaced by the scripted Anthropic endpoint
 * (test/fixtures/llm/anthropicStub.ts, run here in the extension host on 127.0.0.1). This adapter writes
 * files only through `fs/write_text_file` and runs commands only through `terminal/*`, so what it does
 * lands in the extension's VS Code ports: workspace edits (undoable in the editor) and a Pseudoterminal
 * named "Agent: …". Permission requests are asked inline (`acpAgents.permissions.ask: inline`) and
 * answered the way the chat view answers them (support/realAdapterSuite.ts).
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  begin,
  closeAllEditors,
  entriesOf,
  eventually,
  TempFolder,
  toolCallsOf,
  settled,
  workspaceRoot,
} from './support/harness';
import { modelTurns } from './support/realAdapter';
import { useRealAdapter } from './support/realAdapterSuite';
import { terminalText } from './support/terminalText';

/** The permission options claude-code-acp 0.16.2 offers for an edit and for a shell command. */
const OPTIONS = [
  { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

describe('real adapter: @zed-industries/claude-code-acp 0.16.2 as an agent of the extension', function () {
  // session/new alone takes ~1.5 s, the first start of Claude Code longer; a turn with a tool a few seconds.
  this.timeout(120_000);

  const suite = useRealAdapter('real adapter');
  let folder: TempFolder | undefined;
  /** Files a test created outside `folder`, removed after it. */
  let created: string[] = [];

  beforeEach(async () => {
    folder = new TempFolder('real-adapter');
    created = [];
    await closeAllEditors();
  });

  afterEach(() => {
    folder?.dispose();
    for (const file of created) {
      rmSync(file, { force: true });
    }
  });

  it('writes a file through fs/write_text_file as an undoable workspace edit, after an allowed permission', async () => {
    await suite.openChat();
    assert.ok(folder);
    const { api, stub, timings } = suite;
    const file = folder.file('hello.txt');
    const content = 'Hello from the real adapter!\nSecond line.\n';
    stub.setScript({
      kind: 'write',
      path: file,
      content,
      intro: 'I will write the file.',
      finalText: (result) => `Wrote it. Tool said: ${result}`,
    });
    const asked = stub.requests.length;
    const started = Date.now();
    const running = await begin(api, 'Create hello.txt');

    const call = await suite.pendingPermission(running);
    timings.writeUntilPermission = Date.now() - started;
    assert.deepEqual(call.permission?.options, OPTIONS);
    assert.equal(call.title, `Write ${file}`);
    assert.equal(call.toolKind, 'edit');
    assert.equal(existsSync(file), false, 'nothing is written before the permission');
    await suite.answer(call, 'allow');
    const { turn, reply } = await settled('the turn to end', running.done);
    timings.writeTurn = Date.now() - started;

    assert.equal(turn.status, 'completed');
    assert.equal(turn.stopReason, 'end_turn');
    // On disk, exactly the content (the port saved the document after the edit).
    assert.equal(readFileSync(file, 'utf8'), content);

    // Applied as a workspace edit: the document holds it, saved, and undo in its editor takes it back.
    const document = vscode.workspace.textDocuments.find((doc) => doc.uri.fsPath === file);
    assert.ok(document, 'the write went through a text document');
    assert.equal(document.isDirty, false);
    const editor = await vscode.window.showTextDocument(document);
    assert.equal(editor.document.getText(), content);
    await vscode.commands.executeCommand('undo');
    await eventually('undo to restore the empty new file', () => document.getText() === '', 5_000);
    assert.equal(document.isDirty, true, 'the undone text is not saved');
    assert.equal(readFileSync(file, 'utf8'), content, 'undo changes the editor, not the disk');

    // The transcript: the model's text, ONE tool call although the adapter sends tool_call twice, the final text.
    const entries = entriesOf(api, turn.id);
    assert.deepEqual(
      entries.map((entry) => entry.kind),
      ['user', 'agent', 'tool_call', 'agent'],
    );
    const [tool] = toolCallsOf(api, turn.id);
    assert.ok(tool);
    assert.match(tool.toolCallId, /^toolu_stub_\d+$/);
    assert.equal(tool.toolKind, 'edit');
    assert.equal(tool.status, 'completed');
    assert.equal(tool.title, `Write ${file}`);
    assert.deepEqual(tool.content, [{ type: 'diff', path: file, oldText: null, newText: content }]);
    assert.deepEqual(tool.locations, [{ path: file }]);
    assert.deepEqual(tool.permission, {
      key: call.permission?.key,
      options: OPTIONS,
      status: 'selected',
      selectedOptionId: 'allow',
    });
    assert.equal(
      reply,
      `I will write the file.Wrote it. Tool said: The file ${file} has been updated successfully.`,
    );
    // The model was asked twice: for the tool call, then with the tool result.
    assert.deepEqual(modelTurns(stub, asked), ['mcp__acp__Write', 'text']);
  });

  it('runs a shell command through terminal/* in the workspace, shown in an "Agent: …" terminal', async () => {
    await suite.openChat();
    const { api, stub, timings } = suite;
    const marker = `rt${Date.now().toString(36)}`;
    const proof = `.it-rt-${process.pid}.txt`;
    const proofPath = path.join(workspaceRoot(), proof);
    created.push(proofPath);
    // One shell command line (a pipe and a relative path): the terminal name shows up to 40 characters.
    const command = `echo ${marker} | tee ${proof}`;
    assert.ok(command.length <= 40, `keep the command short enough for an untruncated name: ${command}`);
    stub.setScript({
      kind: 'bash',
      command,
      description: 'Write the marker',
      intro: 'I will run it.',
      finalText: (result) => `Output: ${result}`,
    });
    const asked = stub.requests.length;
    const opened: vscode.Terminal[] = [];
    const opening = vscode.window.onDidOpenTerminal((terminal) => opened.push(terminal));
    /** The VS Code terminal behind each agent terminal id, while the agent held it. */
    const shown = new Map<string, vscode.Terminal>();
    const changes = api.terminals.onDidChange((terminalId) => {
      const terminal = api.terminals.terminalFor(terminalId);
      if (terminal) {
        shown.set(terminalId, terminal);
      }
    });
    try {
      const started = Date.now();
      const running = await begin(api, 'Write the marker');
      const call = await suite.pendingPermission(running);
      timings.shellUntilPermission = Date.now() - started;
      assert.deepEqual(call.permission?.options, OPTIONS);
      assert.equal(call.title, `\`${command}\``);
      assert.equal(existsSync(proofPath), false, 'nothing ran before the permission');
      await suite.answer(call, 'allow');
      const { turn, reply } = await settled('the turn to end', running.done);
      timings.shellTurn = Date.now() - started;

      assert.equal(turn.status, 'completed');
      assert.equal(turn.stopReason, 'end_turn');
      // It really ran, through a shell (the pipe), in the workspace folder (the session's cwd).
      assert.equal(readFileSync(proofPath, 'utf8'), `${marker}\n`);

      const entries = entriesOf(api, turn.id);
      assert.deepEqual(
        entries.map((entry) => entry.kind),
        ['user', 'agent', 'tool_call', 'agent'],
      );
      const [tool] = toolCallsOf(api, turn.id);
      assert.ok(tool);
      assert.equal(tool.toolKind, 'execute');
      assert.equal(tool.status, 'completed');
      assert.equal(tool.title, 'Write the marker');
      assert.equal(tool.permission?.selectedOptionId, 'allow');
      assert.equal(tool.content.length, 1);
      const content = tool.content[0];
      assert.ok(content?.type === 'terminal', `expected terminal content, got ${JSON.stringify(content)}`);
      assert.match(content.terminalId, /^term-\d+$/);
      // The output went back to the model through terminal/output, and the model quoted it.
      assert.equal(reply, `I will run it.Output: Exited with code 0.Final output:\n\n${marker}\n`);
      assert.deepEqual(modelTurns(stub, asked), ['mcp__acp__Bash', 'text']);

      // Exactly one VS Code terminal opened for it: a Pseudoterminal named after the command line,
      // the one the extension mapped to the agent's terminal id.
      const terminal = await eventually('the "Agent: …" terminal', () =>
        vscode.window.terminals.find((t) => t.name === `Agent: ${command}`),
      );
      await eventually('VS Code to report the terminal opened', () => opened.length > 0, 5_000);
      assert.deepEqual(
        opened.map((t) => t.name),
        [`Agent: ${command}`],
      );
      assert.equal(opened[0], terminal);
      assert.ok('pty' in terminal.creationOptions, 'the agent terminal is a Pseudoterminal');
      assert.equal(shown.get(content.terminalId), terminal);

      // And it showed the command, its output and its exit: the terminal's text, copied from VS Code.
      const shownText = await terminalText(terminal, `${marker}\n\n[exited`);
      assert.equal(shownText, `$ ${command}\n${marker}\n\n[exited with code 0]`);
    } finally {
      opening.dispose();
      changes.dispose();
    }
  });
});
