/**
 * A real peer inside the real extension host: the unmodified @zed-industries/claude-code-acp 0.16.2
 * adapter (a devDependency; Claude Code inside) configured in `acpAgents.agents` and started by the
 * extension like any user's agent, its model replaced by the scripted Anthropic endpoint
 * (test/fixtures/llm/anthropicStub.ts, run here in the extension host on 127.0.0.1). This adapter writes
 * files only through `fs/write_text_file` and runs commands only through `terminal/*`, so what it does
 * lands in the extension's VS Code ports: workspace edits (undoable in the editor) and a Pseudoterminal
 * named "Agent: …". Permission requests are asked inline (`acpAgents.permissions.ask: inline`) and
 * answered the way the chat view answers them.
 */
import { strict as assert } from 'node:assert';
import { offlineClaudeEnv } from '../fixtures/llm/offlineClaudeEnv';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpAgentsApi } from '../../src/extension';
import type { ThreadEntryMessage } from '../../src/protocol';
import { startAnthropicStub, type AnthropicStub } from '../fixtures/llm/anthropicStub';
import {
  begin,
  closeAllEditors,
  DEMO_AGENT_ID,
  entriesOf,
  eventually,
  freshChat,
  getApi,
  Settings,
  TempFolder,
  toolCallsOf,
  settled,
  workspaceRoot,
  type RunningTurn,
} from './support/harness';
import { adapterPids, adapterScript, modelTurns } from './support/realAdapter';
import { terminalText } from './support/terminalText';

const AGENT_NAME = 'Claude Code (test)';

/** The permission options claude-code-acp 0.16.2 offers for an edit and for a shell command. */
const OPTIONS = [
  { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

type ToolCallMessage = Extract<ThreadEntryMessage, { kind: 'tool_call' }>;

describe('real adapter: @zed-industries/claude-code-acp 0.16.2 as an agent of the extension', function () {
  // session/new alone takes ~1.5 s, the first start of Claude Code longer; a turn with a tool a few seconds.
  this.timeout(120_000);

  let api: AcpAgentsApi;
  let stub: AnthropicStub | undefined;
  /** The adapter's temporary HOME (and CLAUDE_CONFIG_DIR inside it). */
  let home: string | undefined;
  let script = '';
  let agentId = '';
  let folder: TempFolder | undefined;
  /** Files a test created outside `folder`, removed after it. */
  let created: string[] = [];
  /** Chats this suite opened, deleted at the end. */
  const chats: string[] = [];
  const settings = new Settings();
  /** This VS Code saves dirty editors after a second by default; an undone edit must stay unsaved. */
  const fileSettings = new Settings('files');
  /** Step durations in ms, printed at the end. */
  const timings: Record<string, number> = {};

  before(async () => {
    api = await getApi();
    script = adapterScript();
    stub = await startAnthropicStub({ kind: 'text', text: 'Hello.' }, { lifetimeMs: 10 * 60_000 });
    home = mkdtempSync(path.join(tmpdir(), 'acp-it-claude-'));
    mkdirSync(path.join(home, '.claude'), { recursive: true });
    // No remembered "always" answer may skip the permission prompt.
    await api.rules.clear();
    await settings.set('edits.review', 'auto');
    await settings.set('permissions.ask', 'inline');
    await fileSettings.set('autoSave', 'off');
    await settings.set('agents', [
      {
        name: AGENT_NAME,
        // The extension host's own runtime: Node under code-server, Electron (as Node) in desktop VS Code.
        command: process.execPath,
        args: [script],
        env: {
          ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}),
          ...offlineClaudeEnv(home, stub.url),
        },
      },
    ]);
    const agent = await eventually('the adapter in the agent list', () =>
      api.catalog.agents.agents.find((candidate) => candidate.label === AGENT_NAME),
    );
    agentId = agent.id;
    assert.equal(agentId, 'agent:claude-code-test');
    assert.deepEqual(api.catalog.agents.errors, []);
  });

  after(async () => {
    // Also after a failure: no turn left waiting, the adapter stopped, settings, chats and files as before.
    await api?.chat.cancel().catch(() => {});
    await stopAdapter();
    await settings.restore();
    await fileSettings.restore();
    if (api) {
      await eventually('the demo agent to be offered again', () =>
        api.catalog.agents.agents.some((agent) => agent.id === DEMO_AGENT_ID),
      );
      await freshChat(api);
      for (const chatId of chats) {
        await api.chat.deleteChat(chatId).catch(() => {});
      }
      await api.rules.clear();
    }
    await stub?.close();
    if (home) {
      rmSync(home, { recursive: true, force: true });
    }
    console.log(`      [real adapter] timings in ms: ${JSON.stringify(timings)}`);
  });

  beforeEach(async () => {
    folder = new TempFolder('real-adapter');
    created = [];
    await closeAllEditors();
  });

  afterEach(async () => {
    // A turn a failed test left waiting (on its permission or an edit review) ends here, not in the next test.
    for (const review of api.writeReviews.pending()) {
      api.writeReviews.answer(review.id, 'undo');
    }
    await api.chat.cancel().catch(() => {});
    await closeAllEditors();
    folder?.dispose();
    for (const file of created) {
      rmSync(file, { force: true });
    }
  });

  /** Ends the adapter processes (by pid, with their process group) and waits until they are gone. */
  async function stopAdapter(): Promise<void> {
    if (!script) {
      return;
    }
    for (const pid of adapterPids(script)) {
      try {
        // The extension starts each agent in its own process group: this reaches Claude Code's children too.
        process.kill(-pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await eventually('the adapter to exit', () => adapterPids(script).length === 0, 15_000);
  }

  /** A new chat with the adapter: starts it the first time, then opens a session (session/new). */
  async function openChat(): Promise<string> {
    const started = Date.now();
    const firstStart = adapterPids(script).length === 0;
    await api.chat.newChat();
    timings[firstStart ? 'startAndSessionNew' : 'sessionNew'] = Date.now() - started;
    const view = api.chat.viewState();
    assert.ok(view.chat, 'no active chat');
    chats.push(view.chat.chatId);
    assert.equal(view.selectedAgentId, agentId);
    assert.equal(
      api.chat.currentStatus.state,
      'ready',
      `the adapter did not connect: ${JSON.stringify(api.chat.currentStatus)}`,
    );
    // The name it was added under, as the picker shows it (the adapter calls itself "Claude Code").
    assert.equal(api.chat.currentStatus.agentName, AGENT_NAME);
    assert.equal(adapterPids(script).length, 1, 'exactly one adapter process runs');
    return view.chat.chatId;
  }

  /** Waits until the turn's tool call asks permission inline, and returns it. */
  async function pendingPermission(running: RunningTurn): Promise<ToolCallMessage> {
    return eventually(
      'the adapter to ask permission',
      () => {
        const call = toolCallsOf(api, running.turnId).find((entry) => entry.permission?.status === 'pending');
        return call ?? false;
      },
      60_000,
    );
  }

  /** Answers the pending permission the way the chat view's inline card does. */
  async function answer(call: ToolCallMessage, optionId: string): Promise<void> {
    assert.ok(call.permission);
    await api.chat.handleMessage({ type: 'answer_permission', key: call.permission.key, optionId });
  }

  it('writes a file through fs/write_text_file as an undoable workspace edit, after an allowed permission', async () => {
    await openChat();
    assert.ok(folder && stub);
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

    const call = await pendingPermission(running);
    timings.writeUntilPermission = Date.now() - started;
    assert.deepEqual(call.permission?.options, OPTIONS);
    assert.equal(call.title, `Write ${file}`);
    assert.equal(call.toolKind, 'edit');
    assert.equal(existsSync(file), false, 'nothing is written before the permission');
    await answer(call, 'allow');
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
    await openChat();
    assert.ok(stub);
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
      const call = await pendingPermission(running);
      timings.shellUntilPermission = Date.now() - started;
      assert.deepEqual(call.permission?.options, OPTIONS);
      assert.equal(call.title, `\`${command}\``);
      assert.equal(existsSync(proofPath), false, 'nothing ran before the permission');
      await answer(call, 'allow');
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
