/**
 * Issue 4: `session/request_permission` in VS Code. With the chat view hidden the demo agent's `tool`
 * scenario asks through a modal dialog (answered by the prompts seam) with the agent's own options plus
 * "Show diff"; dismissing rejects; "Always allow" is remembered per agent and tool kind (in workspace
 * storage when `permissions.rememberInWorkspace` is on). With the chat view visible the request is
 * answered inline instead.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { PermissionRule, PermissionRules } from '../../src/features/permissions/core/permissionRules';
import type { PermissionPrompt } from '../../src/core/ports';
import { DEMO_AGENT_ID, eventually, hideChatView, proposalDiffTabs, showChatView } from './support/harness';
import { useDemoChats } from './support/demoChats';

const OPTIONS = ['Allow once', 'Always allow', 'Reject'];

/** The "always" answers kept in workspace storage. */
function workspaceRules(rules: PermissionRules): readonly PermissionRule[] {
  return rules.workspaceRules();
}

/** A permission prompt as the demo agent's `tool` sends it, for asking the rules directly. */
function editPrompt(agentId: string): PermissionPrompt {
  return {
    agentId,
    sessionId: 'sess-test',
    key: 'perm-test',
    toolCall: {
      kind: 'tool_call',
      id: 'e1',
      toolCallId: 'call-test',
      title: 'Edit README.md',
      toolKind: 'edit',
      status: 'pending',
      content: [],
      locations: [],
    },
    options: [
      { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
      { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
    ],
  };
}

describe('permissions: modal when the chat is hidden, inline when visible (issue 4)', () => {
  const suite = useDemoChats({ hideChatView: true, clearRules: true, closeEditors: true });

  /** The modal question the demo agent's `tool` scenario should cause. */
  function expectedToolModal() {
    return {
      kind: 'modal',
      message: 'The agent asks permission: Edit README.md',
      // Paths in the dialog are workspace-relative, as VS Code shows them.
      detail: 'README.md:1\nEdits README.md',
      choices: [...OPTIONS, 'Show diff'],
    };
  }

  it('asks with a modal listing the agent options and "Show diff"; Allow once applies the edit', async () => {
    suite.prompts.answerModal('Allow once');
    const { turn, reply } = await suite.ask('tool');

    assert.deepEqual(suite.prompts.asked, [expectedToolModal()]);
    assert.equal(turn.status, 'completed');
    assert.equal(reply, 'Edit allowed (the demo writes nothing).');
    const [call] = suite.toolCallsOf(turn.id);
    assert.equal(call?.status, 'completed');
    assert.equal(call?.permission?.status, 'selected');
    assert.equal(call?.permission?.selectedOptionId, 'allow-once');
    assert.equal(
      suite.api.rules.decide(editPrompt(DEMO_AGENT_ID)),
      undefined,
      '"Allow once" is not remembered',
    );
  });

  it('rejects the edit when the user picks Reject', async () => {
    suite.prompts.answerModal('Reject');
    const { turn, reply } = await suite.ask('tool');

    assert.equal(suite.prompts.questions('modal').length, 1);
    assert.equal(reply, 'Edit rejected.');
    const [call] = suite.toolCallsOf(turn.id);
    assert.equal(call?.status, 'failed');
    assert.equal(call?.permission?.selectedOptionId, 'reject-once');
  });

  it('rejects (never hangs) when the modal is dismissed', async () => {
    suite.prompts.answerModal(undefined);
    const { turn, reply } = await suite.ask('tool');

    assert.deepEqual(suite.prompts.asked, [expectedToolModal()]);
    assert.equal(turn.status, 'completed');
    assert.equal(reply, 'Edit rejected.');
    assert.equal(suite.toolCallsOf(turn.id)[0]?.permission?.selectedOptionId, 'reject-once');
  });

  it('remembers "Always allow" per agent and tool kind, in workspace storage', async () => {
    await suite.settings.set('permissions.rememberInWorkspace', true);
    suite.prompts.answerModal('Always allow');
    const first = await suite.ask('tool');
    assert.equal(first.reply, 'Edit allowed (the demo writes nothing).');
    assert.equal(suite.prompts.questions('modal').length, 1);
    assert.deepEqual(
      await eventually(
        'the rule in workspace storage',
        () => workspaceRules(suite.api.rules).length > 0 && workspaceRules(suite.api.rules),
      ),
      [{ agentId: DEMO_AGENT_ID, toolKind: 'edit', decision: 'allow' }],
    );
    assert.deepEqual(suite.api.rules.decide(editPrompt(DEMO_AGENT_ID)), {
      decision: { outcome: 'selected', optionId: 'allow-always' },
      reason: 'remembered: always allow edit',
    });
    assert.equal(
      suite.api.rules.decide(editPrompt('agent:other')),
      undefined,
      'another agent is still asked',
    );

    // A new chat (a new ACP session): the edit goes through without a dialog.
    await suite.freshChat();
    const second = await suite.ask('tool');
    assert.equal(second.reply, 'Edit allowed (the demo writes nothing).');
    assert.equal(suite.prompts.questions('modal').length, 1, 'no second modal');
    const [call] = suite.toolCallsOf(second.turn.id);
    assert.equal(call?.permission?.selectedOptionId, 'allow-always');

    // Another tool kind (execute) is still asked.
    suite.prompts.answerModal('Allow once', 'Reject');
    const quirks = await suite.ask('quirks');
    assert.equal(quirks.reply, 'quirks done: allow-once reject-once');
    assert.deepEqual(
      suite.prompts
        .questions('modal')
        .slice(1)
        .map((question) => [question.message, question.choices]),
      [
        ['The agent asks permission: Quirky permission', ['Allow once', 'Reject']],
        ['The agent asks permission: String id permission', ['Allow once', 'Reject']],
      ],
    );
  });

  it('with rememberInWorkspace off keeps "Always allow" for the session only', async () => {
    await suite.settings.set('permissions.rememberInWorkspace', false);
    suite.prompts.answerModal('Always allow');
    assert.equal((await suite.ask('tool')).reply, 'Edit allowed (the demo writes nothing).');

    await suite.freshChat();
    assert.equal((await suite.ask('tool')).reply, 'Edit allowed (the demo writes nothing).');
    assert.equal(suite.prompts.questions('modal').length, 1, 'remembered for the session');
    assert.deepEqual(workspaceRules(suite.api.rules), [], 'nothing in workspace storage');
  });

  it('"Show diff" opens the proposed edit and asks again', async () => {
    suite.prompts.answerModal('Show diff', 'Allow once');
    const { reply } = await suite.ask('tool');

    assert.equal(reply, 'Edit allowed (the demo writes nothing).');
    assert.deepEqual(suite.prompts.asked, [expectedToolModal(), expectedToolModal()]);
    const tab = await eventually('the diff of the proposed edit', () => proposalDiffTabs()[0]);
    assert.equal(tab.label, 'README.md: proposed edit');
    // The README as it is, and with the change the demo proposes to its first line.
    const original = (await vscode.workspace.openTextDocument(tab.input.original)).getText();
    assert.match(original, /^# Sample project\n/);
    assert.equal(
      (await vscode.workspace.openTextDocument(tab.input.modified)).getText(),
      original.replace('# Sample project', '# Sample project (edited by the demo agent)'),
    );
  });

  it('with the chat view visible asks inline, not with a modal', async () => {
    await showChatView();
    try {
      const running = await suite.begin('tool');
      const call = await eventually('the inline permission request', () => {
        const entry = suite.toolCallsOf(running.turnId)[0];
        return entry?.permission?.status === 'pending' ? entry : undefined;
      });
      assert.deepEqual(
        call.permission?.options.map((option) => option.name),
        OPTIONS,
      );
      assert.deepEqual(suite.prompts.asked, [], 'no modal while the chat view is visible');

      await suite.answerPermission(call.permission!.key, 'reject-once');
      const { turn, reply } = await running.done;
      assert.equal(turn.status, 'completed');
      assert.equal(reply, 'Edit rejected.');
      assert.equal(suite.toolCallsOf(turn.id)[0]?.permission?.selectedOptionId, 'reject-once');
      assert.deepEqual(suite.prompts.asked, []);
    } finally {
      await hideChatView();
    }
  });
  it('does not chain dialogs for a hidden chat: after the first, the chat comes on screen with its queue', async () => {
    // The first request is a lone dialog; it is answered once all three wait behind it.
    suite.prompts.answerModal(async () => {
      await eventually('three requests waiting', () => {
        const turnId = suite.thread().turns.at(-1)?.id;
        const head = turnId ? suite.toolCallsOf(turnId)[0]?.permission : undefined;
        return head?.status === 'pending' && head.waiting === 2;
      });
      return 'Allow once';
    });
    try {
      const running = await suite.begin('permissions 3');
      // The next request follows another: no second dialog, the hidden chat is shown instead.
      await eventually('the chat view to be shown', () => suite.api.sidebar.isVisible);
      for (const [index, optionId] of ['reject-once', 'allow-once'].entries()) {
        const call = await eventually(`request ${index + 2} inline`, () =>
          suite.toolCallsOf(running.turnId).find((entry) => entry.permission?.status === 'pending'),
        );
        assert.equal(call.title, `Step ${index + 2}`);
        await suite.answerPermission(call.permission!.key, optionId);
      }
      const { turn, reply } = await running.done;
      assert.equal(turn.status, 'completed');
      assert.equal(reply, 'allow-once, reject-once, allow-once');
      assert.deepEqual(
        suite.prompts.questions('modal').map((question) => question.message),
        ['The agent asks permission: Step 1'],
        'one dialog, not one after another',
      );
    } finally {
      await hideChatView();
    }
  });
});
