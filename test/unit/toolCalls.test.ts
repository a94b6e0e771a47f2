import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { chooseKind } from '../../src/features/permissions/core/policyPermissions';
import type { ToolCallEntry } from '../../src/core/thread/threadTypes';
import { agentEntry, entriesOf, firstTurn, text, useTestAgents, waitFor } from './support/testAgent';

const EDIT_OPTIONS = [
  { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
];

function toolCalls(entries: unknown[]): ToolCallEntry[] {
  return entries.filter((entry): entry is ToolCallEntry => (entry as { kind: string }).kind === 'tool_call');
}

describe('tool calls and permission requests', () => {
  const agents = useTestAgents();

  it('runs the tool call lifecycle with a diff and an allowed permission', async () => {
    const agent = await agents.start({ policy: chooseKind('allow_once') });
    const readme = path.join(agent.dir, 'README.md');
    // The change it proposes is to a line the README has: its first non-blank one.
    await writeFile(readme, '\n# My project\r\n\nSome text.\n');
    const { session, turn } = await firstTurn(agent, 'tool');

    assert.equal(turn.status, 'completed');
    const entries = entriesOf(session);
    const tool = entries[1] as Omit<ToolCallEntry, 'id'>;
    assert.equal(tool.kind, 'tool_call');
    assert.match(tool.toolCallId, /^call-/);
    assert.deepEqual(
      { ...tool, toolCallId: 'x' },
      {
        kind: 'tool_call',
        turnId: turn.id,
        toolCallId: 'x',
        title: 'Edit README.md',
        toolKind: 'edit',
        status: 'completed',
        content: [{ type: 'text', text: 'Allowed: README.md (the demo writes nothing)' }],
        locations: [{ path: readme, line: 2 }],
        permission: {
          key: 'perm-1',
          options: EDIT_OPTIONS,
          status: 'selected',
          selectedOptionId: 'allow-once',
        },
      },
    );
    assert.deepEqual(entries[2], agentEntry(turn, 'Edit allowed (the demo writes nothing).'));

    // What the permission port was shown: the tool call with its diff, and the agent's own options.
    assert.equal(agent.permissions.prompts.length, 1);
    const prompt = agent.permissions.prompts[0];
    assert.deepEqual(prompt?.options, EDIT_OPTIONS);
    assert.deepEqual(prompt?.toolCall.content, [
      {
        type: 'diff',
        path: readme,
        oldText: '\n# My project\r\n\nSome text.\n',
        newText: '\n# My project (edited by the demo agent)\r\n\nSome text.\n',
      },
    ]);
    assert.deepEqual(prompt?.toolCall.permission?.status, 'pending');
    assert.ok(
      agent.logger
        .messages('info')
        .some((m) => m.includes('Permission for "Edit README.md"') && m.includes('allow_once (allow-once)')),
    );
  });

  it('proposes a new README.md where there is none, and never reads a FIFO named README.md', async () => {
    const agent = await agents.start({ policy: chooseKind('reject_once') });
    const session = await agent.session();
    await session.prompt([text('tool')]);
    const readme = path.join(agent.dir, 'README.md');
    assert.deepEqual(agent.permissions.prompts[0]?.toolCall.content, [
      {
        type: 'diff',
        path: readme,
        oldText: null,
        newText: `# ${path.basename(agent.dir)}\n\nA README proposed by the demo agent.\n`,
      },
    ]);
    execFileSync('mkfifo', [readme]);
    const turn = await session.prompt([text('tool')]);
    assert.equal(turn.status, 'completed', 'the FIFO was not opened (it would block)');
    assert.equal(agent.permissions.prompts[1]?.toolCall.content[0]?.type, 'diff');
  });

  it('honours a rejection: the tool call fails and the agent says so', async () => {
    const agent = await agents.start({ policy: chooseKind('reject_once') });
    const { session, turn } = await firstTurn(agent, 'tool');
    const [tool] = toolCalls(entriesOf(session));
    assert.equal(turn.status, 'completed');
    assert.equal(tool?.status, 'failed');
    assert.deepEqual(tool?.permission, {
      key: 'perm-1',
      options: EDIT_OPTIONS,
      status: 'selected',
      selectedOptionId: 'reject-once',
    });
    assert.deepEqual(entriesOf(session).at(-1), agentEntry(turn, 'Edit rejected.'));
  });

  it('takes an inline answer while the permission is pending', async () => {
    const agent = await agents.start({ policy: () => undefined });
    const session = await agent.session();
    const running = session.prompt([text('tool')]);
    await waitFor(session, () => session.pendingPermissionKeys().length === 1);
    const [tool] = toolCalls(entriesOf(session));
    assert.equal(tool?.permission?.status, 'pending');
    assert.equal(session.answerPermission('perm-1', { outcome: 'selected', optionId: 'allow-always' }), true);
    assert.equal(session.answerPermission('perm-1', { outcome: 'selected', optionId: 'reject-once' }), false);
    const turn = await running;
    assert.equal(turn.status, 'completed');
    const [done] = toolCalls(entriesOf(session));
    assert.equal(done?.status, 'completed');
    assert.equal(done?.permission?.selectedOptionId, 'allow-always');
  });

  it('treats an option the agent did not offer as no answer', async () => {
    const agent = await agents.start({ policy: () => ({ outcome: 'selected', optionId: 'made-up' }) });
    const { session, turn } = await firstTurn(agent, 'tool');
    const [tool] = toolCalls(entriesOf(session));
    assert.equal(tool?.permission?.status, 'cancelled');
    assert.equal(turn.status, 'cancelled');
    assert.ok(agent.logger.messages('warn').some((m) => m.includes('"made-up" was not offered')));
  });

  it('handles real-agent quirks: permission before tool_call, unseen update ids, duplicate tool_call, string request ids', async () => {
    const agent = await agents.start({ policy: chooseKind('allow_once') });
    const { session, turn } = await firstTurn(agent, 'quirks');
    assert.equal(turn.status, 'completed');
    const tools = toolCalls(entriesOf(session));
    assert.deepEqual(
      tools.map((tool) => [
        tool.toolCallId,
        tool.title,
        tool.toolKind,
        tool.status,
        tool.permission?.selectedOptionId,
      ]),
      [
        ['q-perm', 'Quirky permission', 'execute', 'completed', 'allow-once'],
        ['q-unseen', 'Unseen tool', 'other', 'completed', undefined],
        ['q-dup', 'Duplicate', 'read', 'completed', undefined],
        ['q-string', 'String id permission', 'execute', 'pending', 'allow-once'],
      ],
    );
    assert.equal(tools.filter((tool) => tool.toolCallId === 'q-dup').length, 1);
    assert.deepEqual(entriesOf(session).at(-1), agentEntry(turn, 'quirks done: allow-once allow-once'));
  });
});
