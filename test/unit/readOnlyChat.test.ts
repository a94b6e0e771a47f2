/**
 * A chat another window writes is read-only here: a message to it — from the composer or from a command
 * ("Send to Copilot", `acpAgents.sendToAgent`, which ask `turns.sendRefusal` before their question) — is
 * refused with the composer's reason, and nothing reaches the agent.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ChatHarness, RecordingView, testAgent, until } from './support/chatHarness';
import { runWriter, startTogether } from './support/otherWindow';

/** The user texts the test agent recorded for its sessions (what really reached it). */
function promptsReceived(agentState: string): string[] {
  return readdirSync(agentState)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => {
      const session = JSON.parse(readFileSync(path.join(agentState, name), 'utf8')) as {
        turns?: { user: string }[];
      };
      return (session.turns ?? []).map((turn) => turn.user);
    });
}

describe('a read-only chat (another window writes it) refuses a message from any path', () => {
  let chat: ChatHarness | undefined;
  let agentState: string;
  let other: ReturnType<typeof runWriter> | undefined;
  beforeEach(() => {
    agentState = mkdtempSync(path.join(os.tmpdir(), 'acp-agent-state-'));
  });
  afterEach(async () => {
    other?.child.kill('SIGKILL');
    await other?.exited;
    other = undefined;
    await chat?.dispose();
    chat = undefined;
    rmSync(agentState, { recursive: true, force: true });
  });

  it('says why and sends nothing, from the composer and from a command', async () => {
    const agents = [testAgent('a', { TEST_AGENT_STATE_DIR: agentState })];
    chat = new ChatHarness({ agents });
    await chat.ready();
    await chat.send('first');
    const chatId = chat.controller.windowChatId;
    const storageDir = chat.storageDir;
    await chat.dispose({ keepStorage: true });

    // This window reads the chat; then another window (a real process) takes it and keeps writing it.
    chat = new ChatHarness({ agents, storageDir });
    await chat.controller.restored;
    assert.equal(chat.controller.windowChatId, chatId);
    assert.equal(chat.controller.turns.sendRefusal(chat.controller.windowSlot), undefined);
    other = runWriter(storageDir, chatId, 'other', 1, 1000, true);
    await startTogether(other);
    assert.equal((await other.report).problem, null);
    // A view showing the chat (an editor tab) is told when it turns read-only.
    const open = new RecordingView();
    chat.controller.attachView(open, { chatId });
    await chat.controller.handleMessage({ type: 'ready' }, open);
    // The next write here (a rename) is refused: the chat turns read-only, as the composer shows.
    await chat.controller.handleMessage({ type: 'rename_chat', chatId, title: 'renamed here' });
    const controller = chat.controller;
    await until(() => controller.viewState().chat?.readOnly === true, 'the chat to turn read-only');
    await until(() => open.of('save_problem').at(-1)?.readOnly === true, 'the open view told');
    assert.equal(open.of('save_problem').at(-1)?.chatId, chatId);
    // The view comes up now (it is sent the read-only state; its errors are recorded).
    await controller.handleMessage({ type: 'ready' });
    const view = chat.view;

    const reason = chat.controller.turns.sendRefusal(chat.controller.windowSlot);
    assert.match(reason ?? '', /^Read-only in this window, so nothing was sent\. /);
    assert.match(reason ?? '', /open for writing in another window \(process \d+ on /);

    // The composer's path (a hostile or stale view could still post `send`).
    const before = chat.transcript();
    const errors = view.of('error').length;
    await chat.send('second from the composer');
    assert.deepEqual(
      view
        .of('error')
        .slice(errors)
        .map((m) => m.message),
      [reason],
    );
    // A command's path ("Send to Copilot" sends blocks to the window's chat).
    await assert.rejects(
      chat.controller.sendPrompt([{ type: 'text', text: 'third from a command' }]),
      (error: Error) => error.message === reason,
    );
    assert.equal(chat.transcript(), before, 'no turn was added here');
    assert.deepEqual(promptsReceived(agentState), ['first'], 'nothing reached the agent');
  });
});
