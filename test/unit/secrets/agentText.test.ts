import { strict as assert } from 'node:assert';
import { RequestError } from '@agentclientprotocol/sdk';
import { boundedText, plainText, safeAgentText } from '../../../src/core/thread/agentText';
import { errorDetails } from '../../../src/core/connection/errors';

describe('agent text, bounded and plain', () => {
  it('strips colours, OSC 8 links and screen clearing', () => {
    assert.equal(
      plainText('\u001b[31mred\u001b[0m \u001b]8;;https://x\u0007link\u001b]8;;\u0007 \u001b[2Jdone'),
      'red link done',
    );
  });

  it('removes NUL and other controls, keeps newlines and tabs, shows bidi overrides', () => {
    assert.equal(plainText('a\u0000b\u0007c\r\n\td\u009b'), 'abc\n\td');
    assert.equal(plainText('user\u202Eexe.txt'), 'user‹U+202E›exe.txt');
    assert.equal(plainText('\u2066x\u2069'), '‹U+2066›x‹U+2069›');
  });

  it('cuts long text with a marker that says how much', () => {
    assert.equal(boundedText('abcdef', 4), 'abcd… [cut: 2 more characters]');
    assert.equal(boundedText('abc', 4), 'abc');
  });

  it('bounds and cleans an error message from the agent (1 MB, escapes, NUL)', () => {
    const huge = `\u001b[1mBoom\u001b[0m\u0000 ${'x'.repeat(1_000_000)}`;
    const details = errorDetails(new RequestError(-32603, huge));
    assert.ok(details.message.length < 2100, `${details.message.length} characters`);
    assert.match(details.message, /^Boom x+… \[cut: [\d,]+ more characters\]$/);
    assert.equal(safeAgentText('\u202Eok'), '‹U+202E›ok');
  });
});
