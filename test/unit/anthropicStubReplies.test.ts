import { strict as assert } from 'node:assert';
import {
  replyTo,
  toolResultsOfTurn,
  type LlmScript,
  type MessagesRequest,
} from '../fixtures/llm/stubReplies';

/** The tools claude-code-acp offers the model (with Claude Code's own among them). */
const TOOLS = [
  { name: 'mcp__acp__Read' },
  { name: 'mcp__acp__Write' },
  { name: 'mcp__acp__Bash' },
  { name: 'Write' },
];

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (id: string) => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id }],
});
const result = (id: string, text: string) => ({
  role: 'user',
  content: [
    { type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text }] },
    // Claude Code may add a reminder beside a result: still the result's message.
    { type: 'text', text: '<system-reminder>…</system-reminder>' },
  ],
});

function request(...messages: MessagesRequest['messages'] & object): MessagesRequest {
  return { stream: true, tools: TOOLS, messages };
}

describe('the Anthropic stub: what it answers', () => {
  const steps: LlmScript = {
    kind: 'steps',
    steps: [
      { kind: 'write', path: '/w/a.txt', content: 'A\r\n', intro: 'First a.' },
      { kind: 'bash', command: 'printf b > b.txt' },
      { kind: 'read', path: '/w/a.txt', intro: 'Now read.' },
    ],
    finalText: (results) => `Results: ${results.join(' | ')}`,
  };

  it('plays a steps script in order, one tool call per tool result back, then the final text', () => {
    const first = replyTo(steps, request(user('go')), 'toolu_1');
    assert.deepEqual(first, {
      text: 'First a.',
      tool: { id: 'toolu_1', name: 'mcp__acp__Write', input: { file_path: '/w/a.txt', content: 'A\r\n' } },
    });
    /** The conversation after the results of the first `count` steps came back. */
    const after = (count: number): MessagesRequest => {
      const outputs = ['wrote', 'ran', 'A'];
      const turns = outputs
        .slice(0, count)
        .flatMap((output, at) => [assistant(`toolu_${at + 1}`), result(`toolu_${at + 1}`, output)]);
      return request(user('go'), ...turns);
    };
    const second = replyTo(steps, after(1), 'toolu_2');
    assert.deepEqual(second.tool, {
      id: 'toolu_2',
      name: 'mcp__acp__Bash',
      input: { command: 'printf b > b.txt', description: 'Run a command', timeout: 60_000 },
    });
    assert.equal(second.text, "I'll use mcp__acp__Bash.");
    const third = replyTo(steps, after(2), 'toolu_3');
    assert.deepEqual(third.tool, { id: 'toolu_3', name: 'mcp__acp__Read', input: { file_path: '/w/a.txt' } });
    const final = replyTo(steps, after(3), 'toolu_4');
    assert.deepEqual(final, { text: 'Results: wrote | ran | A' });
  });

  it("counts only this turn's results: an earlier turn's tools do not skip the next turn's steps", () => {
    const earlier = [
      user('before'),
      assistant('toolu_0'),
      result('toolu_0', 'old'),
      { role: 'assistant', content: 'ok' },
    ];
    assert.deepEqual(toolResultsOfTurn(request(...earlier, user('go'))), []);
    assert.equal(replyTo(steps, request(...earlier, user('go')), 'toolu_1').tool?.name, 'mcp__acp__Write');
    assert.deepEqual(
      toolResultsOfTurn(request(...earlier, user('go'), assistant('toolu_1'), result('toolu_1', 'new'))),
      ['new'],
    );
  });

  it('a one-tool script answers its final text with the result once it is back', () => {
    const script: LlmScript = { kind: 'bash', command: 'ls', finalText: (text) => `Saw ${text}` };
    assert.equal(replyTo(script, request(user('go')), 'toolu_1').tool?.name, 'mcp__acp__Bash');
    assert.deepEqual(
      replyTo(script, request(user('go'), assistant('toolu_1'), result('toolu_1', 'x')), 'toolu_2'),
      {
        text: 'Saw x',
      },
    );
  });

  it('answers a helper request without tools in plain text', () => {
    assert.deepEqual(replyTo(steps, { stream: true, messages: [user('title?')] }, 'toolu_1'), {
      text: 'No write tool was offered.',
    });
  });
});
