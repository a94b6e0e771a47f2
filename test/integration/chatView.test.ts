/**
 * Issue 3: the sidebar chat with the built-in demo agent — a prompt streams into the active chat, a
 * running turn can be cancelled, and a rich turn (markdown, a tool call with an inline permission) is
 * shown in the visible chat view (screenshot test-results/vscode-chat-streamed.png).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { eventually, workspaceRoot } from './support/harness';
import { useDemoChats } from './support/demoChats';
import { requestScreenshot } from './support/screenshot';

describe('chat view: streaming and cancel (issue 3)', () => {
  const suite = useDemoChats({ chatView: true, clearRules: true });

  it('streams a prompt to the demo agent into the active chat (stream 50)', async () => {
    const chatId = suite.chatId();
    const { turn, reply } = await suite.ask('stream 50');

    assert.equal(turn.status, 'completed');
    assert.equal(turn.stopReason, 'end_turn');
    const expected = Array.from({ length: 50 }, (_, i) => `chunk ${i + 1} `).join('');
    assert.equal(reply, expected);
    const entries = suite.thread().entries;
    assert.deepEqual(
      entries.map((entry) => entry.kind),
      ['user', 'agent'],
      'one user message, then one streamed agent message',
    );
    assert.equal(entries[0]?.kind === 'user' && entries[0].text, 'stream 50');
    assert.equal(suite.api.chat.currentStatus.state, 'ready');
    assert.equal(suite.api.chat.currentStatus.agentName, 'Demo agent (offline)');
    const summary = suite.api.chat.chatList().find((chat) => chat.chatId === chatId);
    assert.ok(summary, 'the chat is not in the chat list');
    assert.equal(summary.running, false);
    assert.equal(summary.title, 'stream 50');
  });

  it('cancels a running turn (hang, then cancel) and the chat goes on', async () => {
    const chatId = suite.chatId();
    const running = await suite.begin('hang');
    await eventually('the agent to say "waiting "', () => suite.replyOf(running.turnId) === 'waiting ');
    assert.equal(suite.api.chat.chatList().find((chat) => chat.chatId === chatId)?.running, true);
    assert.equal(suite.thread().turns.at(-1)?.status, 'running');

    await suite.api.chat.cancel();
    const { turn, reply } = await running.done;
    assert.equal(turn.status, 'cancelled');
    assert.equal(turn.stopReason, 'cancelled');
    assert.equal(reply, 'waiting ', 'what was streamed before the cancel stays');
    assert.equal(suite.api.chat.chatList().find((chat) => chat.chatId === chatId)?.running, false);

    const next = await suite.ask('stream 2');
    assert.equal(next.turn.status, 'completed');
    assert.equal(next.reply, 'chunk 1 chunk 2 ');
  });

  it('shows a rich turn in the visible chat view, answered inline (screenshot vscode-chat-streamed)', async () => {
    const help = await suite.ask('help');
    assert.equal(help.turn.status, 'completed');
    assert.ok(help.reply.startsWith("I'm the **offline demo agent**"), `unexpected help text: ${help.reply}`);
    assert.ok(help.reply.includes('| `tool` |'), 'the help table lists the tool scenario');

    // With the chat view visible the permission is asked inline, never as a modal dialog.
    const tool = await suite.begin('tool');
    const pending = await eventually('the inline permission request', () => {
      const call = suite.toolCallsOf(tool.turnId)[0];
      return call?.permission?.status === 'pending' ? call : undefined;
    });
    assert.equal(pending.title, 'Edit README.md');
    assert.deepEqual(
      pending.permission?.options.map((option) => option.name),
      ['Allow once', 'Always allow', 'Reject'],
    );
    // A change to a line the workspace's README has: its first one gets a note.
    const readme = path.join(workspaceRoot(), 'README.md');
    const before = readFileSync(readme, 'utf8');
    assert.deepEqual(pending.content, [
      {
        type: 'diff',
        path: readme,
        oldText: before,
        newText: before.replace('# Sample project', '# Sample project (edited by the demo agent)'),
      },
    ]);
    await suite.answerPermission(pending.permission!.key, 'allow-once');
    const { turn, reply } = await tool.done;
    assert.equal(turn.status, 'completed');
    assert.equal(reply, 'Edit allowed (the demo writes nothing).');
    const call = suite.toolCallsOf(tool.turnId)[0];
    assert.equal(call?.status, 'completed');
    assert.equal(call?.permission?.status, 'selected');
    assert.equal(call?.permission?.selectedOptionId, 'allow-once');
    assert.deepEqual(suite.prompts.asked, [], 'no dialog was shown while the chat view is visible');

    // The visible chat view is a live webview that said `ready`, checked whether or not pictures can be
    // taken; the picture waits until the view shows the finished turn (it renders asynchronously).
    assert.ok(suite.api.chat.readyViewCount > 0, 'the chat webview is connected and ready');
    await requestScreenshot('vscode-chat-streamed', {
      waitForText: 'Edit allowed (the demo writes nothing).',
    });
  });
});
