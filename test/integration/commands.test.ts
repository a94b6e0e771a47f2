/**
 * Issue 4: the palette and menu commands (category "ACP"), "Send to Copilot" with an editor selection,
 * "Add File to Chat", the status bar item, and how invalid `acpAgents.agents` settings are reported
 * while the valid (or demo) agents keep working.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpAgentsApi } from '../../src/extension';
import {
  activeThread,
  ask,
  begin,
  closeAllEditors,
  DEMO_AGENT_ID,
  demoAgentPids,
  EXTENSION_ID,
  eventually,
  freshChat,
  getApi,
  installPrompts,
  replyOf,
  Settings,
  workspaceRoot,
  type ScriptedPrompts,
} from './support/harness';

const PALETTE_COMMANDS = [
  'acpAgents.sendToCopilot',
  'acpAgents.sendToAgent',
  'acpAgents.newChat',
  'acpAgents.cancel',
  'acpAgents.selectAgent',
  'acpAgents.restartAgent',
  'acpAgents.showLog',
  'acpAgents.switchChat',
  'acpAgents.addFileToChat',
  'acpAgents.review.keep',
  'acpAgents.review.undo',
  'acpAgents.openChatInEditor',
  'acpAgents.setMcpSecret',
];

describe('commands, status bar and agent settings (issue 4)', () => {
  let api: AcpAgentsApi;
  let prompts: ScriptedPrompts & { restore(): void };
  const settings = new Settings();
  const hello = (): vscode.Uri => vscode.Uri.file(path.join(workspaceRoot(), 'src', 'hello.ts'));

  before(async () => {
    api = await getApi();
  });

  beforeEach(async () => {
    prompts = installPrompts(api);
    await freshChat(api);
  });

  afterEach(async () => {
    prompts.restore();
    await settings.restore();
    await closeAllEditors();
  });

  it('registers every command, each with category ACP', async () => {
    const registered = await vscode.commands.getCommands(true);
    for (const command of PALETTE_COMMANDS) {
      assert.ok(registered.includes(command), `${command} is not registered`);
    }
    const contributed = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON.contributes
      .commands as Array<{
      command: string;
      category?: string;
    }>;
    assert.deepEqual(
      contributed.map((c) => c.command).sort(),
      [...PALETTE_COMMANDS].sort(),
      'the contributed commands',
    );
    for (const command of contributed) {
      assert.equal(command.category, 'ACP', `${command.command} has category ${command.category}`);
    }
  });

  it('Send to Copilot sends the selection with the typed question (to the demo agent when no Copilot is set up)', async () => {
    assert.ok(
      !api.chat.agentsOffered.some((agent) => agent.id === 'copilot'),
      'this test expects no Copilot agent to be configured',
    );
    const document = await vscode.workspace.openTextDocument(hello());
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(1, 0, 2, document.lineAt(2).text.length);
    const selected = document.getText(editor.selection);
    const before = activeThread(api).turns.length;
    prompts.answerText('Explain this');

    await vscode.commands.executeCommand('acpAgents.sendToCopilot');
    const turn = await eventually('the sent turn to finish', () => {
      const turns = activeThread(api).turns;
      return turns.length > before && turns.at(-1)!.status !== 'running' && turns.at(-1)!;
    });

    assert.deepEqual(prompts.asked, [
      {
        kind: 'text',
        message: 'Ask Demo agent (offline) about the selection',
        detail: 'e.g. Explain this, or: Add error handling',
        choices: [],
      },
    ]);
    const uri = document.uri.with({ fragment: 'L2-L3' }).toString();
    const user = activeThread(api).entries.find((entry) => entry.turnId === turn.id && entry.kind === 'user');
    assert.ok(user && user.kind === 'user');
    assert.equal(user.text, 'Explain this');
    assert.deepEqual(user.attachments, [
      { type: 'resource', uri, chars: selected.length, mimeType: 'text/x-typescript' },
    ]);
    assert.equal(turn.status, 'completed');
    assert.equal(
      replyOf(api, turn.id),
      `You said: Explain this\n- resource ${uri} (${selected.length} chars)`,
    );
  });

  it('Send to Copilot sends nothing when the question is dismissed', async () => {
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(hello()));
    editor.selection = new vscode.Selection(0, 0, 0, 0); // no selection: the whole file is meant
    prompts.answerText(undefined);

    await vscode.commands.executeCommand('acpAgents.sendToCopilot');
    assert.equal(prompts.questions('text').length, 1);
    assert.equal(prompts.questions('text')[0]?.message, 'Ask Demo agent (offline) about hello.ts');
    assert.deepEqual(activeThread(api).turns, []);
  });

  it('Add File to Chat puts the files on the composer; they go with the next message', async () => {
    const readme = vscode.Uri.file(path.join(workspaceRoot(), 'README.md'));
    await vscode.commands.executeCommand('acpAgents.addFileToChat', hello(), [hello(), readme]);
    const attachments = [
      { uri: hello().toString(), name: 'hello.ts' },
      { uri: readme.toString(), name: 'README.md' },
    ];
    assert.deepEqual(api.chat.viewState().attachments, attachments);
    // Adding one again does not duplicate it.
    await vscode.commands.executeCommand('acpAgents.addFileToChat', hello());
    assert.deepEqual(api.chat.viewState().attachments, attachments);

    await api.chat.handleMessage({ type: 'send', text: 'look', attachments });
    assert.equal(api.chat.viewState().attachments, undefined, 'sent attachments leave the composer');
    const turn = activeThread(api).turns.at(-1);
    assert.ok(turn);
    const helloText = (await vscode.workspace.openTextDocument(hello())).getText();
    const readmeText = (await vscode.workspace.openTextDocument(readme)).getText();
    assert.equal(
      replyOf(api, turn.id),
      `You said: look\n- resource ${hello().toString()} (${helloText.length} chars)` +
        `\n- resource ${readme.toString()} (${readmeText.length} chars)`,
    );
  });

  it('the status bar item shows the agent and its state; the Cancel command stops a turn', async () => {
    await eventually(
      'the status bar to say ready',
      () => api.statusBar.text === '$(hubot) Demo agent (offline): ready',
    );

    const running = await begin(api, 'hang');
    await eventually(
      'the status bar to say working',
      () => api.statusBar.text === '$(sync~spin) Demo agent (offline): working',
    );
    await vscode.commands.executeCommand('acpAgents.cancel');
    const { turn } = await running.done;
    assert.equal(turn.status, 'cancelled');
    await eventually(
      'the status bar to say ready again',
      () => api.statusBar.text === '$(hubot) Demo agent (offline): ready',
    );
  });

  it('New Chat and Show Agent Log run from the palette', async () => {
    await ask(api, 'stream 1');
    const before = api.chat.viewState().chat?.chatId;
    await vscode.commands.executeCommand('acpAgents.newChat');
    const after = api.chat.viewState();
    assert.notEqual(after.chat?.chatId, before, 'a new chat is active');
    assert.deepEqual(after.chat?.thread.entries, []);
    await vscode.commands.executeCommand('acpAgents.showLog');
  });

  it('Restart Agent starts a new agent process and the chat goes on', async () => {
    assert.equal((await ask(api, 'stream 1')).reply, 'chunk 1 ');
    const before = demoAgentPids();
    assert.equal(before.length, 1, `expected one demo agent process, found ${JSON.stringify(before)}`);

    await vscode.commands.executeCommand('acpAgents.restartAgent');
    const after = demoAgentPids();
    assert.equal(after.length, 1, `expected one demo agent process, found ${JSON.stringify(after)}`);
    assert.notEqual(after[0], before[0], 'a new process runs');
    assert.equal(api.chat.currentStatus.state, 'ready');
    assert.equal((await ask(api, 'stream 1')).reply, 'chunk 1 ');
  });

  it('reports an invalid acpAgents.agents entry and still offers the demo agent', async () => {
    await settings.set('agents', [{ name: '' }]);
    const errors = await eventually('the settings error', () => {
      const found = api.catalog.agents.errors;
      return found.length > 0 && found;
    });
    assert.equal(errors.length, 1);
    assert.ok(
      errors[0]?.startsWith('acpAgents.agents[0]: name needs a name'),
      `unexpected error: ${errors[0]}`,
    );
    assert.deepEqual(
      api.catalog.agents.agents.map((agent) => agent.id),
      [DEMO_AGENT_ID],
    );

    await freshChat(api);
    assert.equal(api.chat.viewState().selectedAgentId, DEMO_AGENT_ID);
    const { turn, reply } = await ask(api, 'stream 2');
    assert.equal(turn.status, 'completed');
    assert.equal(reply, 'chunk 1 chunk 2 ');
  });

  it('skips the invalid entry but offers and runs the valid ones', async () => {
    const demo = api.catalog.agents.agents.find((agent) => agent.id === DEMO_AGENT_ID);
    assert.ok(demo, 'the demo agent is offered before the change');
    await settings.set('agents', [
      { name: 'Broken', command: '' },
      {
        name: 'Second demo',
        command: demo.command,
        // The extra argument (ignored by the agent) tells this process apart from the built-in demo agent.
        args: [...demo.args, '--variant=commands-test'],
        env: { ELECTRON_RUN_AS_NODE: '1' },
      },
    ]);
    await eventually('the new agent list', () => api.catalog.agents.agents[0]?.id === 'agent:second-demo');
    assert.deepEqual(
      api.catalog.agents.agents.map((agent) => agent.label),
      ['Second demo'],
    );
    assert.equal(api.catalog.agents.errors.length, 1);
    assert.ok(api.catalog.agents.errors[0]?.startsWith('acpAgents.agents[0]: command needs a command'));

    await freshChat(api);
    assert.equal(api.chat.viewState().selectedAgentId, 'agent:second-demo');
    const { reply } = await ask(api, 'stream 2');
    assert.equal(reply, 'chunk 1 chunk 2 ');
    assert.equal(api.chat.currentStatus.state, 'ready');
  });
});
