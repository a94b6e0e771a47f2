import { strict as assert } from 'node:assert';
import { nextTerminalState, TerminalText } from '../../webview/terminalText';

describe('webview terminal text', () => {
  it('reads any part of a text appended in pieces as the joined text would give it', () => {
    const pieces = ['', 'ab', 'c', '', 'defg', 'h', 'ijklmnop', 'q'];
    const text = new TerminalText();
    for (const piece of pieces) {
      text.append(piece);
    }
    const joined = pieces.join('');
    assert.equal(text.length, joined.length);
    for (let from = 0; from <= joined.length; from++) {
      for (let to = from; to <= joined.length; to++) {
        assert.equal(text.slice(from, to), joined.slice(from, to), `slice(${from}, ${to})`);
      }
    }
    assert.equal(new TerminalText().slice(0, 0), '');
  });

  it('continues a state on an appended delta, and starts a new text on output sent whole', () => {
    const first = nextTerminalState(undefined, { terminalId: 't', output: 'one\n', truncated: false });
    const grown = nextTerminalState(first, {
      terminalId: 't',
      output: 'two\n',
      append: true,
      truncated: false,
    });
    assert.equal(grown.text, first.text, 'the same text, appended to');
    assert.deepEqual([first.length, grown.length], [4, 8]);
    assert.equal(first.text.slice(0, first.length), 'one\n', 'an earlier state still reads its own output');
    assert.equal(grown.text.slice(0, grown.length), 'one\ntwo\n');
    const whole = nextTerminalState(grown, { terminalId: 't', output: 'cut\n', truncated: true });
    assert.notEqual(whole.text, grown.text);
    assert.equal(whole.text.slice(0, whole.length), 'cut\n');
    assert.equal(whole.truncated, true);
    // A delta with nothing before it (sent before this page existed) is all the page has.
    const orphan = nextTerminalState(undefined, {
      terminalId: 't',
      output: 'tail\n',
      append: true,
      truncated: false,
    });
    assert.equal(orphan.text.slice(0, orphan.length), 'tail\n');
    assert.equal('append' in orphan || 'output' in orphan, false);
  });
});
