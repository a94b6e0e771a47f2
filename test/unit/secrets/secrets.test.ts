import { strict as assert } from 'node:assert';
import type * as acp from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { SecretValues, secretValues } from '../../../src/core/secrets/secrets';
import { StreamScrubber } from '../../../src/core/secrets/streamScrubber';
import { describeErrorForLog, errorDetails } from '../../../src/core/connection/errors';
import { traceLine } from '../../../src/core/connection/protocolTrace';

const TOKEN = 'ghp_planted0123456789';

function chunk(text: string, messageId = 'm1'): acp.SessionUpdate {
  return { sessionUpdate: 'agent_message_chunk', messageId, content: { type: 'text', text } };
}

function textOf(updates: readonly acp.SessionUpdate[]): string {
  return updates
    .map((u) =>
      u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : '',
    )
    .join('');
}

describe('secret scrubbing', () => {
  beforeEach(() => secretValues.add('GITHUB_TOKEN', TOKEN));
  afterEach(() => secretValues.clear());

  it('replaces every known value by its name, longest first, also JSON-escaped', () => {
    const values = new SecretValues();
    values.add('A', 'abc"def123');
    values.add('B', 'abc"def123-longer');
    assert.equal(values.scrub('x abc"def123-longer y abc"def123'), 'x ‹secret B› y ‹secret A›');
    assert.equal(values.scrub(JSON.stringify({ v: 'abc"def123' })), '{"v":"‹secret A›"}');
    values.add('SHORT', '12345'); // too short to scrub without garbling every text
    assert.equal(values.scrub('12345'), '12345');
  });

  it('scrubs a secret quoted back in an error message and in error data', () => {
    const error = new RequestError(-32603, `refused: token ${TOKEN} is invalid`, {
      env: { GITHUB_TOKEN: TOKEN },
    });
    const details = errorDetails(error);
    assert.equal(details.message.includes(TOKEN), false, details.message);
    assert.match(details.message, /‹secret GITHUB_TOKEN›/);
    assert.equal(details.data?.includes(TOKEN), false, details.data);
    assert.match(details.data ?? '', /‹secret GITHUB_TOKEN›/);
    assert.equal(describeErrorForLog(error).includes(TOKEN), false);
  });

  it('scrubs a secret split across two streamed chunks, holding back only what could be one', () => {
    const scrubber = new StreamScrubber();
    const first = scrubber.accept(chunk(`Your token is ${TOKEN.slice(0, 7)}`));
    assert.equal(textOf(first), 'Your token is ', 'the possible start of the secret is held back');
    const second = scrubber.accept(chunk(`${TOKEN.slice(7)}, keep it.`));
    assert.equal(textOf([...first, ...second]), 'Your token is ‹secret GITHUB_TOKEN›, keep it.');
    // A held tail that turns out not to be a secret is passed on at the end of the turn.
    const held = scrubber.accept(chunk('ends with ghp_'));
    assert.equal(textOf(held), 'ends with ');
    assert.equal(textOf(scrubber.flush()), 'ghp_');
  });

  it("scrubs a tool call's output", () => {
    const scrubber = new StreamScrubber();
    const [update] = scrubber.accept({
      sessionUpdate: 'tool_call_update',
      toolCallId: 't1',
      content: [{ type: 'content', content: { type: 'text', text: `GITHUB_TOKEN=${TOKEN}` } }],
    });
    assert.equal(JSON.stringify(update).includes(TOKEN), false);
    assert.match(JSON.stringify(update), /GITHUB_TOKEN=‹secret GITHUB_TOKEN›/);
  });

  it('passes updates through untouched when no secret is in use', () => {
    secretValues.clear();
    const update = chunk('ghp_');
    assert.deepEqual(new StreamScrubber().accept(update), [update]);
  });

  it('redacts MCP env and header values and auth fields in a trace line, and scrubs the rest', () => {
    const line = traceLine({
      jsonrpc: '2.0',
      id: 1,
      method: 'session/new',
      params: {
        cwd: '/w',
        mcpServers: [
          { name: 'gh', command: 'gh-mcp', args: [], env: [{ name: 'API', value: 'unknown-value-1' }] },
          {
            type: 'http',
            name: 'web',
            url: 'https://x',
            headers: [{ name: 'Authorization', value: 'Bearer b' }],
          },
        ],
        _meta: { apiKey: 'unknown-value-2', note: `quoted ${TOKEN}` },
      },
    });
    for (const hidden of ['unknown-value-1', 'Bearer b', 'unknown-value-2', TOKEN]) {
      assert.equal(line.includes(hidden), false, `${hidden} in ${line}`);
    }
    assert.match(line, /"name":"API","value":"‹redacted›"/);
    assert.match(line, /"name":"Authorization","value":"‹redacted›"/);
    assert.match(line, /"apiKey":"‹redacted›"/);
    assert.match(line, /"note":"quoted ‹secret GITHUB_TOKEN›"/);
    assert.match(line, /"command":"gh-mcp"/);
  });
});
