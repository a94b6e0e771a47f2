/**
 * Issue 4: "Send to Copilot" with an editor selection: to a configured Copilot agent or Copilot CLI found
 * on PATH, or, when there is none, to the current agent only when the user asks; nothing sent when a
 * question is dismissed or the chat is still answering.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEMO_AGENT_ID, eventually, workspaceRoot } from './support/harness';
import { useDemoChats } from './support/demoChats';

describe('commands: Send to Copilot (issue 4)', () => {
  const suite = useDemoChats({ closeEditors: true });
  const hello = (): vscode.Uri => vscode.Uri.file(path.join(workspaceRoot(), 'src', 'hello.ts'));
  /** Opens hello.ts with `selection` selected, as the user does before Send to Copilot. */
  const selectInHello = async (selection: vscode.Selection): Promise<void> => {
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(hello()));
    editor.selection = selection;
  };

  it('Send to Copilot without a Copilot agent says so, and sends to the current agent only when asked', async () => {
    assert.ok(
      !suite.api.chat.agentsOffered.some((agent) => agent.id === 'copilot'),
      'this test expects no Copilot agent to be configured',
    );
    const document = await vscode.workspace.openTextDocument(hello());
    const editor = await vscode.window.showTextDocument(document);
    // Lines 2–3 selected whole, as dragging to the start of line 4 does: the range is L2-L3, not L2-L4.
    editor.selection = new vscode.Selection(1, 0, 3, 0);
    const selected = document.getText(editor.selection);
    const before = suite.thread().turns.length;
    suite.prompts.answerModal('Send to Demo agent (offline)');
    suite.prompts.answerText('Explain this');

    await vscode.commands.executeCommand('acpAgents.sendToCopilot');
    const turn = await eventually('the sent turn to finish', () => {
      const turns = suite.thread().turns;
      return turns.length > before && turns.at(-1)!.status !== 'running' && turns.at(-1)!;
    });

    assert.deepEqual(
      suite.prompts.asked.map((question) => [question.kind, question.message, question.choices]),
      [
        ['modal', 'No GitHub Copilot agent is set up.', ['Set Up Copilot', 'Send to Demo agent (offline)']],
        ['text', 'Ask Demo agent (offline) about the selection', []],
      ],
    );
    const uri = document.uri.with({ fragment: 'L2-L3' }).toString();
    const user = suite.thread().entries.find((entry) => entry.turnId === turn.id && entry.kind === 'user');
    assert.ok(user && user.kind === 'user');
    assert.equal(user.text, 'Explain this');
    assert.deepEqual(user.attachments, [
      { type: 'resource', uri, chars: selected.length, mimeType: 'text/x-typescript' },
    ]);
    assert.equal(turn.status, 'completed');
    assert.equal(
      suite.replyOf(turn.id),
      `You said: Explain this\n- resource ${uri} (${selected.length} chars)`,
    );
  });

  it('Send to Copilot without a Copilot agent sends nothing when the notice is dismissed', async () => {
    await selectInHello(new vscode.Selection(1, 0, 2, 3));
    suite.prompts.answerModal(undefined);

    await vscode.commands.executeCommand('acpAgents.sendToCopilot');
    assert.equal(suite.prompts.questions('modal').length, 1);
    assert.deepEqual(
      suite.prompts.questions('text'),
      [],
      'no question is asked for an agent the user did not choose',
    );
    assert.deepEqual(suite.thread().turns, []);
  });

  it('Send to Copilot sends nothing when the question is dismissed', async () => {
    await selectInHello(new vscode.Selection(0, 0, 0, 0)); // no selection: the whole file is meant
    suite.prompts.answerModal('Send to Demo agent (offline)');
    suite.prompts.answerText(undefined);

    await vscode.commands.executeCommand('acpAgents.sendToCopilot');
    assert.equal(suite.prompts.questions('text').length, 1);
    assert.equal(suite.prompts.questions('text')[0]?.message, 'Ask Demo agent (offline) about hello.ts');
    assert.deepEqual(suite.thread().turns, []);
  });

  it('Send to Copilot refuses before asking while the chat it would go to is still answering', async () => {
    const running = await suite.begin('hang');
    await selectInHello(new vscode.Selection(1, 0, 2, 3));
    suite.prompts.answerModal('Send to Demo agent (offline)');
    suite.prompts.answerText('Lost?');

    await vscode.commands.executeCommand('acpAgents.sendToCopilot');
    assert.deepEqual(
      suite.prompts.questions('text'),
      [],
      'no question is typed that would have nowhere to go',
    );
    assert.deepEqual(
      suite
        .thread()
        .entries.filter((entry) => entry.kind === 'user')
        .map((entry) => entry.text),
      ['hang'],
    );
    await vscode.commands.executeCommand('acpAgents.cancel');
    assert.equal((await running.done).turn.status, 'cancelled');
  });

  it('Send to Copilot goes to the configured Copilot agent (a program named copilot), starting it, not to the current agent', async () => {
    const demo = suite.api.catalog.agents.agents.find((agent) => agent.id === DEMO_AGENT_ID);
    assert.ok(demo, 'the demo agent is offered before the change');
    const bin = mkdtempSync(path.join(os.tmpdir(), 'acp-copilot-'));
    try {
      // A program named copilot that is really the demo agent: recognised by its name, as Copilot CLI would be.
      const copilot = path.join(bin, 'copilot');
      writeFileSync(copilot, `#!/bin/sh\nexec "${demo.command}" "${demo.args[0]}" "$@"\n`, { mode: 0o755 });
      await suite.settings.set('agents', [
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
      await eventually(
        'the new agent list',
        () => suite.api.catalog.agents.agents[1]?.id === 'agent:work-copilot',
      );
      await suite.freshChat();
      assert.equal(
        suite.api.chat.viewState().selectedAgentId,
        'agent:other-agent',
        'another agent is current',
      );
      await suite.ask('stream 1'); // the current chat is in use, so Copilot's answer needs a chat of its own
      const otherChatId = suite.chatId();

      await selectInHello(new vscode.Selection(0, 0, 1, 0));
      suite.prompts.answerText('Who answers this?');
      await vscode.commands.executeCommand('acpAgents.sendToCopilot');
      const turn = await eventually('the turn sent to Copilot to finish', () => {
        const last = suite.thread().turns.at(-1);
        return suite.chatId() !== otherChatId && last !== undefined && last.status !== 'running' && last;
      });

      assert.deepEqual(
        suite.prompts.asked.map((question) => [question.kind, question.message]),
        [['text', 'Ask Work Copilot about the selection']],
        'no "no Copilot" notice: the configured one was found',
      );
      assert.equal(suite.api.chat.viewState().selectedAgentId, 'agent:work-copilot');
      assert.equal(suite.api.chat.currentStatus.state, 'ready');
      assert.equal(turn.status, 'completed');
      assert.match(suite.replyOf(turn.id), /^You said: Who answers this\?\n- resource .*#L1 /);
      const chats = suite.api.chat.chatList();
      assert.equal(chats.find((c) => c.chatId === suite.chatId())?.agentId, 'agent:work-copilot');
      assert.equal(chats.find((c) => c.chatId === otherChatId)?.agentId, 'agent:other-agent');
      await suite.api.chat.switchChat(otherChatId);
      assert.ok(
        !suite.thread().entries.some((entry) => entry.kind === 'user' && entry.text === 'Who answers this?'),
        'the other agent did not receive the question',
      );
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('offers Copilot CLI found on PATH as a preset, and Send to Copilot goes to it', async () => {
    const demo = suite.api.catalog.agents.agents.find((agent) => agent.id === DEMO_AGENT_ID);
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
      await suite.settings.set('agents', [
        { name: 'Other agent', command: demo.command, args: demo.args, env: { ELECTRON_RUN_AS_NODE: '1' } },
      ]);
      await eventually('the preset to be offered', () =>
        suite.api.catalog.agents.agents.some((a) => a.id === 'copilot'),
      );
      assert.deepEqual(
        suite.api.catalog.agents.agents.map((agent) => [agent.id, agent.label, agent.description]),
        [
          ['agent:other-agent', 'Other agent', [demo.command, ...demo.args].join(' ')],
          ['copilot', 'GitHub Copilot CLI', 'copilot --acp --stdio'],
          // The demo agent stays offered, last, after real agents are there.
          [DEMO_AGENT_ID, demo.label, demo.description],
        ],
      );
      await suite.freshChat();
      // acpAgents.defaultAgent is "copilot" by default: the detected preset is where a new chat starts.
      assert.equal(suite.api.chat.viewState().selectedAgentId, 'copilot');
      await suite.api.chat.selectAgent('agent:other-agent');
      assert.equal((await suite.ask('stream 1')).reply, 'chunk 1 ');

      await selectInHello(new vscode.Selection(0, 0, 0, 5));
      suite.prompts.answerText('Hello Copilot');
      await vscode.commands.executeCommand('acpAgents.sendToCopilot');
      const turn = await eventually('the turn sent to the Copilot preset to finish', () => {
        const last = suite.thread().turns.at(-1);
        return last !== undefined && last.status !== 'running' && last;
      });
      assert.equal(suite.api.chat.viewState().selectedAgentId, 'copilot');
      assert.equal(turn.status, 'completed');
      assert.match(suite.replyOf(turn.id), /^You said: Hello Copilot\n/);
      assert.deepEqual(suite.prompts.questions('modal'), [], 'Copilot was found: no "set one up" question');
    } finally {
      process.env.PATH = savedPath;
      await suite.settings.restore();
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
