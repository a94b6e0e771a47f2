import { strict as assert } from 'node:assert';
import { format } from 'node:util';
import { looksFatal, StderrLines } from '../../src/core/connection/stderrLines';
import { secretValues } from '../../src/core/secrets/secrets';

/** The agent's stderr as the chat shows it while it waits: whole lines, plain, scrubbed, bounded. */
describe('an agent’s stderr cut into lines to show', () => {
  afterEach(() => secretValues.clear());

  function linesOf(...pieces: string[]): string[] {
    const shown: string[] = [];
    const lines = new StderrLines((line) => shown.push(line));
    for (const piece of pieces) {
      lines.push(piece);
    }
    return shown;
  }

  it('gives whole lines as they complete, across pieces and CRLF, skipping blank ones', () => {
    assert.deepEqual(linesOf('Error: can', 'not start\r\n\n  \nnext'), ['Error: cannot start']);
    assert.deepEqual(linesOf('a\nb\n'), ['a', 'b']);
  });

  it('scrubs a secret and the terminal escapes out of a line', () => {
    const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    secretValues.add('GITHUB_TOKEN', token);
    const [line] = linesOf(`\u001b[31mError:\u001b[0m bad token ${token}\n`);
    assert.ok(line !== undefined && !line.includes(token), line);
    assert.ok(!line.includes('\u001b'), line);
    assert.match(line, /^Error: bad token /);
  });

  it('bounds a shown line at 300 characters, and what it holds of an unended line at 8 KiB', () => {
    const [long] = linesOf(`Error: ${'x'.repeat(5000)}\n`);
    assert.ok(long !== undefined && long.startsWith(`Error: ${'x'.repeat(293)}…`), long?.slice(0, 320));
    assert.ok(long.length < 360);
    // A minified bundle printed without a newline: only its last 8 KiB are kept for the line.
    const lines = new StderrLines(() => undefined);
    for (let index = 0; index < 100; index++) {
      lines.push('y'.repeat(100_000));
    }
    assert.ok((lines as unknown as { partial: string }).partial.length <= 8192);
  });

  it('tells a fatal line from progress chatter', () => {
    for (const fatal of [
      'Error: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons',
      'fatal: not a git repository',
      'EACCES: permission denied, open /root/.config',
      'Could not find a valid API key',
    ]) {
      assert.equal(looksFatal(fatal), true, fatal);
    }
    for (const chatter of ['Loading model…', 'Connected to MCP server github', 'Listening on stdio']) {
      assert.equal(looksFatal(chatter), false, chatter);
    }
  });

  it("does not take an agent's complaint about our cancel notification for a reason it stops", () => {
    // What an agent on an older ACP SDK prints (console.error) when it gets `$/cancel_request`, which it
    // does not know: we sent it, abandoning a session still opening; the agent goes on.
    const notice = { jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 7 } };
    const error = { code: -32601, message: '"Method not found": $/cancel_request', data: { method: '$/cancel_request' } };
    const said: string[] = [];
    const lines = new StderrLines((line) => said.push(line));
    lines.push(`${format('Error handling notification', notice, error)}\n`);
    assert.ok(said.length > 0);
    assert.deepEqual(said.filter(looksFatal), []);
    // An unknown method's error reaches the caller as the request's answer, never only on stderr.
    assert.equal(looksFatal('Error: "Method not found": session/set_model'), false);
    assert.equal(looksFatal('Error: session not found'), true, 'other "not found" lines still count');
  });
});
