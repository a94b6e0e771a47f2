import assert from 'node:assert/strict';
import { escapeHtml } from '../../webview/markdown/codeBlock';
import { plainContinuation } from '../../webview/markdown/proseTail';
import { renderMarkdown } from '../../webview/markdown/renderer';

/** What the shown paragraph's text may end with: prose, markdown that could pair up, line starts. */
const SHOWN = [
  'Plain words',
  'Plain words ',
  'Plain words  ',
  'Two lines\nof prose',
  'Two lines\n   indented continuation',
  'A *star',
  'A **bold',
  'A *done*',
  'A _under',
  'A _done_',
  'An `open',
  'A `done`',
  'See example.co',
  'See https://example.com/pa',
  'See src/file.ts',
  'An &amp',
  'An &amp;',
  'A < b',
  'Ends with a backslash\\',
  'A [link',
  'A [link](https://example.com)',
  'a | b',
  'Heading\n=',
  'Rule\n-',
  '1',
  '1. item',
  '-',
  '#',
  '>',
  'Word ~~strike',
  'Word!',
  'Word.',
  'Ünïcödé wörds',
];

/** What arrives next, including chunk boundaries in the middle of markdown. */
const ADDED = [
  ' more words',
  'more',
  ' ',
  '   ',
  'm',
  ' and, then; "quoted" isn\'t it? yes!',
  ' then stops. Next',
  ' ends with a stop.',
  '. Then',
  'com',
  '.com',
  '*',
  '* done',
  '**',
  '_',
  '`',
  '<',
  '&',
  ';',
  '\n',
  '\nNext line',
  '\n# Heading',
  '\n- item',
  '\n1. item',
  '\n> quote',
  '\n| a |',
  '\n===',
  '\n---',
  ' - not a list',
  ' # not a heading',
  ') closes',
  ' wörter 123',
  ' ~~',
  '\u00a0nbsp',
  '\tTab',
];

function isOneParagraph(html: string): boolean {
  return html.startsWith('<p>') && html.endsWith('</p>\n') && html.indexOf('<p>', 3) < 0;
}

describe('webview markdown: a paragraph tail growing by plain words', () => {
  it('appends exactly what a re-parse of the whole tail would add, or asks for the re-parse', () => {
    let appended = 0;
    for (const shown of SHOWN) {
      const before = renderMarkdown(shown);
      if (!isOneParagraph(before)) {
        continue;
      }
      for (const added of ADDED) {
        const text = plainContinuation(shown, added);
        if (text === undefined) {
          continue;
        }
        appended++;
        const expected = renderMarkdown(shown + added);
        const fast = `${before.slice(0, -'</p>\n'.length)}${escapeHtml(text)}</p>\n`;
        assert.equal(
          fast.replace(/&#39;/g, "'"),
          expected,
          `${JSON.stringify(shown)} + ${JSON.stringify(added)}`,
        );
      }
    }
    // The fast path must actually be taken for plain prose, not only be safe by refusing.
    assert.ok(appended >= 60, `appended without a re-parse ${appended} times`);
  });

  it('takes the fast path for plain prose and leaves anything that could be markdown to the parser', () => {
    assert.equal(plainContinuation('Plain words', ' more words'), ' more words');
    assert.equal(plainContinuation('Plain words ', 'more'), ' more');
    assert.equal(plainContinuation('Plain words', ' trailing  '), ' trailing');
    assert.equal(plainContinuation('Plain words  ', '  '), '');
    assert.equal(plainContinuation('A *done*', ' then. Next'), ' then. Next');
    for (const [shown, added] of [
      ['A *done*', 'x'], // touches a delimiter: "*done*x" can change emphasis for `_`
      ['A _done_', 'bar'],
      ['See example.co', 'm'], // a linkified address that grows
      ['See https://example.com/pa', 'th'],
      ['An &amp', ';'],
      ['Word.', 'com'],
      ['Plain words', ' example.com'], // a full stop not followed by a space
      ['Plain words', '\nNext line'],
      ['Heading', '\n==='],
      ['1', '. item'],
      ['1', ') item'],
      ['Plain words', ' *'],
      ['Plain words', ' `code'],
      ['Plain words', ' <b>'],
      ['Plain words', ' a | b'],
      ['Plain words', '\u00a0nbsp'],
    ] as const) {
      assert.equal(
        plainContinuation(shown, added),
        undefined,
        `${JSON.stringify(shown)} + ${JSON.stringify(added)}`,
      );
    }
  });
});
