/**
 * A tool card's "Open in terminal" reaches the editor with the terminal and the session of the chat
 * the view shows (VS Code then opens that session's terminal only; see terminalWindows.test.ts).
 */
import { strict as assert } from 'node:assert';
import { ChatHarness, testAgent } from '../support/chatHarness';
import { ownedPerTest } from '../../support/ownedPerTest';

describe('"Open in terminal" from a tool card', () => {
  const owned = ownedPerTest();

  it("asks the editor for the view's chat's session's terminal", async () => {
    const chat = owned(new ChatHarness({ agents: [testAgent('a')] }));
    await chat.ready();
    await chat.send('terminal echo hi');
    const entries = chat.controller.viewState().chat?.thread.entries ?? [];
    const terminalId = entries
      .flatMap((entry) => (entry.kind === 'tool_call' ? entry.content : []))
      .flatMap((content) => (content.type === 'terminal' ? [content.terminalId] : []))[0];
    assert.ok(terminalId, 'the command is shown as a terminal');
    await chat.controller.handleMessage({ type: 'open_terminal', terminalId });
    const sessionId = chat.controller.turns.sessionIdOf(chat.controller.windowSlot);
    assert.ok(sessionId);
    assert.deepEqual(chat.shownTerminals, [{ terminalId, sessionId }]);
    // A malformed request is refused by the schema, not passed on.
    await chat.controller.handleMessage({ type: 'open_terminal', terminalId: 'x'.repeat(201) });
    assert.equal(chat.shownTerminals.length, 1);
  });
});
