/**
 * Issue 4: commands run from the palette and menus against the demo agent: Add File to Chat, Cancel
 * (with the status bar item showing the agent's state), New Chat, Show Agent Log and Restart Agent.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { RUNNING_SHOWN_AFTER_MS } from '../../src/chat/chatActivity';
import { AgentStatusBar } from '../../src/vscode/statusBar';
import { ManualClock } from '../support/manualClock';
import { demoAgentPids, eventually, workspaceRoot } from './support/harness';
import { useDemoChats } from './support/demoChats';

describe('commands: the palette, the status bar and Restart Agent (issue 4)', () => {
  const suite = useDemoChats({ closeEditors: true });
  const hello = (): vscode.Uri => vscode.Uri.file(path.join(workspaceRoot(), 'src', 'hello.ts'));

  it('Add File to Chat puts the files on the composer; they go with the next message', async () => {
    const readme = vscode.Uri.file(path.join(workspaceRoot(), 'README.md'));
    await vscode.commands.executeCommand('acpAgents.addFileToChat', hello(), [hello(), readme]);
    const attachments = [
      { uri: hello().toString(), name: 'hello.ts' },
      { uri: readme.toString(), name: 'README.md' },
    ];
    assert.deepEqual(suite.api.chat.viewState().attachments, attachments);
    // Adding one again does not duplicate it.
    await vscode.commands.executeCommand('acpAgents.addFileToChat', hello());
    assert.deepEqual(suite.api.chat.viewState().attachments, attachments);

    await suite.api.chat.handleMessage({ type: 'send', text: 'look', attachments });
    assert.equal(suite.api.chat.viewState().attachments, undefined, 'sent attachments leave the composer');
    const turn = suite.thread().turns.at(-1);
    assert.ok(turn);
    const helloText = (await vscode.workspace.openTextDocument(hello())).getText();
    const readmeText = (await vscode.workspace.openTextDocument(readme)).getText();
    assert.equal(
      suite.replyOf(turn.id),
      `You said: look\n- resource ${hello().toString()} (${helloText.length} chars)` +
        `\n- resource ${readme.toString()} (${readmeText.length} chars)`,
    );
  });

  it('the status bar item shows the agent and its state; the Cancel command stops a turn', async () => {
    await eventually(
      'the status bar to say ready',
      () => suite.api.statusBar.text === '$(hubot) Demo agent (offline): ready',
    );

    const running = await suite.begin('hang');
    await eventually(
      'the status bar to say working',
      () => suite.api.statusBar.text === '$(sync~spin) Demo agent (offline): working',
    );
    await vscode.commands.executeCommand('acpAgents.cancel');
    const { turn } = await running.done;
    assert.equal(turn.status, 'cancelled');
    await eventually(
      'the status bar to say ready again',
      () => suite.api.statusBar.text === '$(hubot) Demo agent (offline): ready',
    );
  });

  it('the status bar item says working once a turn has run a moment: a short turn changes nothing there', async () => {
    const clock = new ManualClock();
    const item = new AgentStatusBar(suite.api.chat, clock);
    try {
      await suite.ask('hello');
      const ready = '$(hubot) Demo agent (offline): ready';
      assert.equal(item.text, ready);
      assert.equal(clock.pending, 0, 'the timer that would have shown working is gone');
      const before = item.changes;
      await suite.ask('hello');
      assert.equal(item.changes, before, 'not set at all: each change is a trip through the window');

      const running = await suite.begin('hang');
      clock.advance(RUNNING_SHOWN_AFTER_MS - 1);
      assert.equal(item.text, ready);
      clock.advance(1);
      assert.equal(item.text, '$(sync~spin) Demo agent (offline): working');
      await vscode.commands.executeCommand('acpAgents.cancel');
      await running.done;
      await eventually('the item to say ready again', () => item.text === ready);
    } finally {
      item.dispose();
    }
  });

  it('New Chat and Show Agent Log run from the palette', async () => {
    await suite.ask('stream 1');
    const before = suite.api.chat.viewState().chat?.chatId;
    await vscode.commands.executeCommand('acpAgents.newChat');
    const after = suite.api.chat.viewState();
    assert.notEqual(after.chat?.chatId, before, 'a new chat is active');
    assert.deepEqual(after.chat?.thread.entries, []);
    await vscode.commands.executeCommand('acpAgents.showLog');
  });

  it('Restart Agent starts a new agent process and the chat goes on', async () => {
    assert.equal((await suite.ask('stream 1')).reply, 'chunk 1 ');
    const before = demoAgentPids();
    assert.equal(before.length, 1, `expected one demo agent process, found ${JSON.stringify(before)}`);

    await vscode.commands.executeCommand('acpAgents.restartAgent');
    const after = demoAgentPids();
    assert.equal(after.length, 1, `expected one demo agent process, found ${JSON.stringify(after)}`);
    assert.notEqual(after[0], before[0], 'a new process runs');
    assert.equal(suite.api.chat.currentStatus.state, 'ready');
    assert.equal((await suite.ask('stream 1')).reply, 'chunk 1 ');
  });
});
