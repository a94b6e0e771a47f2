/**
 * Issue 4: the palette and menu commands (category "ACP"), "Send to Copilot" with an editor selection,
 * "Add File to Chat", the status bar item, and how invalid `acpAgents.agents` settings are reported
 * while the valid (or demo) agents keep working.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpAgentsApi } from '../../src/extension';
import {
  activeChatId,
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
  'acpAgents.editor.sendToCopilot',
  'acpAgents.editor.sendToAgent',
  'acpAgents.newChat',
  'acpAgents.cancel',
  'acpAgents.selectAgent',
  'acpAgents.restartAgent',
  'acpAgents.showLog',
  'acpAgents.checkAgents',
  'acpAgents.switchChat',
  'acpAgents.addFileToChat',
  'acpAgents.review.keep',
  'acpAgents.review.undo',
  'acpAgents.openChatInEditor',
  'acpAgents.view.openChatInEditor',
  'acpAgents.newChatInEditor',
  'acpAgents.setMcpSecret',
  'acpAgents.resetMcpConsent',
  'acpAgents.signOut',
  'acpAgents.addAgent',
  'acpAgents.updateAgents',
  'acpAgents.removeAgent',
  'acpAgents.focusChat',
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

  it('labels the editor context menu entries "ACP:" and binds Send to Copilot to a chord VS Code leaves free', async () => {
    const contributes = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON.contributes as {
      commands: Array<{ command: string; title: string }>;
      menus: Record<string, Array<{ command: string }>>;
      keybindings: Array<{ command: string; key: string; mac?: string }>;
    };
    const titles = contributes.menus['editor/context']!.map(
      (item) => contributes.commands.find((command) => command.command === item.command)?.title,
    );
    assert.deepEqual(titles, ['ACP: Send to Copilot', 'ACP: Send to Agent…']);
    const binding = contributes.keybindings.find((item) => item.command === 'acpAgents.sendToCopilot');
    assert.deepEqual([binding?.key, binding?.mac], ['ctrl+alt+a', 'cmd+alt+a']);
    // Ctrl+Alt+I is VS Code's own "Open Chat": ours must not shadow it.
    assert.ok(!contributes.keybindings.some((item) => item.key === 'ctrl+alt+i'));
  });

  it('Send to Copilot without a Copilot agent says so, and sends to the current agent only when asked', async () => {
    assert.ok(
      !api.chat.agentsOffered.some((agent) => agent.id === 'copilot'),
      'this test expects no Copilot agent to be configured',
    );
    const document = await vscode.workspace.openTextDocument(hello());
    const editor = await vscode.window.showTextDocument(document);
    // Lines 2–3 selected whole, as dragging to the start of line 4 does: the range is L2-L3, not L2-L4.
    editor.selection = new vscode.Selection(1, 0, 3, 0);
    const selected = document.getText(editor.selection);
    const before = activeThread(api).turns.length;
    prompts.answerModal('Send to Demo agent (offline)');
    prompts.answerText('Explain this');

    await vscode.commands.executeCommand('acpAgents.sendToCopilot');
    const turn = await eventually('the sent turn to finish', () => {
      const turns = activeThread(api).turns;
      return turns.length > before && turns.at(-1)!.status !== 'running' && turns.at(-1)!;
    });

    assert.deepEqual(
      prompts.asked.map((question) => [question.kind, question.message, question.choices]),
      [
        ['modal', 'No GitHub Copilot agent is set up.', ['Set Up Copilot', 'Send to Demo agent (offline)']],
        ['text', 'Ask Demo agent (offline) about the selection', []],
      ],
    );
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

  it('Send to Copilot without a Copilot agent sends nothing when the notice is dismissed', async () => {
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(hello()));
    editor.selection = new vscode.Selection(1, 0, 2, 3);
    prompts.answerModal(undefined);

    await vscode.commands.executeCommand('acpAgents.sendToCopilot');
    assert.equal(prompts.questions('modal').length, 1);
    assert.deepEqual(
      prompts.questions('text'),
      [],
      'no question is asked for an agent the user did not choose',
    );
    assert.deepEqual(activeThread(api).turns, []);
  });

  it('Send to Copilot sends nothing when the question is dismissed', async () => {
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(hello()));
    editor.selection = new vscode.Selection(0, 0, 0, 0); // no selection: the whole file is meant
    prompts.answerModal('Send to Demo agent (offline)');
    prompts.answerText(undefined);

    await vscode.commands.executeCommand('acpAgents.sendToCopilot');
    assert.equal(prompts.questions('text').length, 1);
    assert.equal(prompts.questions('text')[0]?.message, 'Ask Demo agent (offline) about hello.ts');
    assert.deepEqual(activeThread(api).turns, []);
  });

  it('Send to Copilot refuses before asking while the chat it would go to is still answering', async () => {
    const running = await begin(api, 'hang');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(hello()));
    editor.selection = new vscode.Selection(1, 0, 2, 3);
    prompts.answerModal('Send to Demo agent (offline)');
    prompts.answerText('Lost?');

    await vscode.commands.executeCommand('acpAgents.sendToCopilot');
    assert.deepEqual(prompts.questions('text'), [], 'no question is typed that would have nowhere to go');
    assert.deepEqual(
      activeThread(api)
        .entries.filter((entry) => entry.kind === 'user')
        .map((entry) => entry.text),
      ['hang'],
    );
    await vscode.commands.executeCommand('acpAgents.cancel');
    assert.equal((await running.done).turn.status, 'cancelled');
  });

  it('Send to Copilot goes to the configured Copilot agent (a program named copilot), starting it, not to the current agent', async () => {
    const demo = api.catalog.agents.agents.find((agent) => agent.id === DEMO_AGENT_ID);
    assert.ok(demo, 'the demo agent is offered before the change');
    const bin = mkdtempSync(path.join(os.tmpdir(), 'acp-copilot-'));
    try {
      // A program named copilot that is really the demo agent: recognised by its name, as Copilot CLI would be.
      const copilot = path.join(bin, 'copilot');
      writeFileSync(copilot, `#!/bin/sh\nexec "${demo.command}" "${demo.args[0]}" "$@"\n`, { mode: 0o755 });
      await settings.set('agents', [
        {
          name: 'Other agent',
          command: demo.command,
          args: [...demo.args, '--variant=other'],
          env: { ELECTRON_RUN_AS_NODE: '1' },
        },
        {
          name: 'Work Copilot',
          command: copilot,
          args: ['--acp', '--stdio'],
          env: { ELECTRON_RUN_AS_NODE: '1' },
        },
      ]);
      await eventually('the new agent list', () => api.catalog.agents.agents[1]?.id === 'agent:work-copilot');
      await freshChat(api);
      assert.equal(api.chat.viewState().selectedAgentId, 'agent:other-agent', 'another agent is current');
      await ask(api, 'stream 1'); // the current chat is in use, so Copilot's answer needs a chat of its own
      const otherChatId = activeChatId(api);

      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(hello()));
      editor.selection = new vscode.Selection(0, 0, 1, 0);
      prompts.answerText('Who answers this?');
      await vscode.commands.executeCommand('acpAgents.sendToCopilot');
      const turn = await eventually('the turn sent to Copilot to finish', () => {
        const last = activeThread(api).turns.at(-1);
        return activeChatId(api) !== otherChatId && last !== undefined && last.status !== 'running' && last;
      });

      assert.deepEqual(
        prompts.asked.map((question) => [question.kind, question.message]),
        [['text', 'Ask Work Copilot about the selection']],
        'no "no Copilot" notice: the configured one was found',
      );
      assert.equal(api.chat.viewState().selectedAgentId, 'agent:work-copilot');
      assert.equal(api.chat.currentStatus.state, 'ready');
      assert.equal(turn.status, 'completed');
      assert.match(replyOf(api, turn.id), /^You said: Who answers this\?\n- resource .*#L1 /);
      const chats = api.chat.chatList();
      assert.equal(chats.find((c) => c.chatId === activeChatId(api))?.agentId, 'agent:work-copilot');
      assert.equal(chats.find((c) => c.chatId === otherChatId)?.agentId, 'agent:other-agent');
      await api.chat.switchChat(otherChatId);
      assert.ok(
        !activeThread(api).entries.some(
          (entry) => entry.kind === 'user' && entry.text === 'Who answers this?',
        ),
        'the other agent did not receive the question',
      );
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('offers Copilot CLI found on PATH as a preset, and Send to Copilot goes to it', async () => {
    const demo = api.catalog.agents.agents.find((agent) => agent.id === DEMO_AGENT_ID);
    assert.ok(demo, 'the demo agent is offered before the change');
    const bin = mkdtempSync(path.join(os.tmpdir(), 'acp-path-'));
    const savedPath = process.env.PATH;
    try {
      // "Installed" Copilot CLI: a program named copilot on PATH (really the demo agent).
      writeFileSync(
        path.join(bin, 'copilot'),
        `#!/bin/sh\nELECTRON_RUN_AS_NODE=1 exec "${demo.command}" "${demo.args[0]}" "$@"\n`,
        { mode: 0o755 },
      );
      // The extension host is this process: PATH is read again when the agent settings change.
      process.env.PATH = `${bin}${path.delimiter}${savedPath ?? ''}`;
      await settings.set('agents', [
        { name: 'Other agent', command: demo.command, args: demo.args, env: { ELECTRON_RUN_AS_NODE: '1' } },
      ]);
      await eventually('the preset to be offered', () =>
        api.catalog.agents.agents.some((a) => a.id === 'copilot'),
      );
      assert.deepEqual(
        api.catalog.agents.agents.map((agent) => [agent.id, agent.label, agent.description]),
        [
          ['agent:other-agent', 'Other agent', [demo.command, ...demo.args].join(' ')],
          ['copilot', 'GitHub Copilot CLI', 'copilot --acp --stdio'],
          // The demo agent stays offered, last, after real agents are there.
          [DEMO_AGENT_ID, demo.label, demo.description],
        ],
      );
      await freshChat(api);
      // acpAgents.defaultAgent is "copilot" by default: the detected preset is where a new chat starts.
      assert.equal(api.chat.viewState().selectedAgentId, 'copilot');
      await api.chat.selectAgent('agent:other-agent');
      assert.equal((await ask(api, 'stream 1')).reply, 'chunk 1 ');

      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(hello()));
      editor.selection = new vscode.Selection(0, 0, 0, 5);
      prompts.answerText('Hello Copilot');
      await vscode.commands.executeCommand('acpAgents.sendToCopilot');
      const turn = await eventually('the turn sent to the Copilot preset to finish', () => {
        const last = activeThread(api).turns.at(-1);
        return last !== undefined && last.status !== 'running' && last;
      });
      assert.equal(api.chat.viewState().selectedAgentId, 'copilot');
      assert.equal(turn.status, 'completed');
      assert.match(replyOf(api, turn.id), /^You said: Hello Copilot\n/);
      assert.deepEqual(prompts.questions('modal'), [], 'Copilot was found: no "set one up" question');
    } finally {
      process.env.PATH = savedPath;
      await settings.restore();
      rmSync(bin, { recursive: true, force: true });
    }
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
      // The demo agent stays offered, last, once real agents are configured.
      ['Second demo', 'Demo agent (offline)'],
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
