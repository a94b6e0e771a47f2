import assert from 'node:assert/strict';
import { LinkifyIt as LinkifyItLibrary } from 'linkify-it';
import MarkdownIt, { type MarkdownIt as Markdown } from 'markdown-it';
import * as ucmicroLibrary from 'uc.micro';
import { classifyLink } from '../../webview/links';
import { LinkifyIt } from '../../webview/markdown/linkify';
import * as ucmicro from '../../webview/markdown/ucmicro';

/**
 * The webview bundles its own stand-ins for two of markdown-it's libraries (esbuild.mjs): the chat's
 * autolinks for linkify-it, and the browser's `\p{…}` for uc.micro's tables. These tests set each
 * beside the library it replaces, as markdown-it uses it.
 */

type Link = readonly [text: string, href: string];

/** A markdown-it configured as webview/markdown/renderer.ts configures it, with a given linkifier. */
function markdown(linkify: 'library' | 'ours'): Markdown {
  const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });
  md.validateLink = () => true;
  if (linkify === 'library') {
    // What the chat used before: linkify-it with its defaults and no bare e-mail addresses.
    md.linkify.set({ fuzzyEmail: false });
  } else {
    // As esbuild.mjs puts it in the bundle (a class of its own, so not typed as linkify-it's).
    Object.assign(md, { linkify: new LinkifyIt() });
  }
  return md;
}

function linksIn(md: Markdown, text: string): Link[] {
  const tokens = md.parseInline(text, {})[0]?.children ?? [];
  const links: Link[] = [];
  tokens.forEach((token, index) => {
    if (token.type === 'link_open') {
      links.push([
        tokens[index + 1]?.type === 'text' ? (tokens[index + 1]?.content ?? '') : '',
        String(token.attrGet('href') ?? ''),
      ]);
    }
  });
  return links;
}

const same = Symbol('as before');

/**
 * Text, what linkify-it linked (markdown links included: both parse those), and what the chat links
 * now where it differs on purpose (`same` otherwise).
 */
const CORPUS: readonly [text: string, before: Link[], now: Link[] | typeof same][] = [
  // Web URLs: ports, queries, fragments, paths, IPs, upper case.
  [
    'see https://example.com/a?x=1&y=2#frag',
    [['https://example.com/a?x=1&y=2#frag', 'https://example.com/a?x=1&y=2#frag']],
    same,
  ],
  ['http://localhost:3000/api', [['http://localhost:3000/api', 'http://localhost:3000/api']], same],
  ['https://example.com:8080/a', [['https://example.com:8080/a', 'https://example.com:8080/a']], same],
  ['http://192.168.0.1:8080/', [['http://192.168.0.1:8080/', 'http://192.168.0.1:8080/']], same],
  ['http://[::1]:8080/x', [['http://[::1]:8080/x', 'http://[::1]:8080/x']], same],
  ['HTTPS://EXAMPLE.COM', [['HTTPS://EXAMPLE.COM', 'HTTPS://EXAMPLE.COM']], same],
  ['https://a.b/c%20d', [['https://a.b/c d', 'https://a.b/c%20d']], same],
  [
    'https://example.com/~user/a-b_c.d',
    [['https://example.com/~user/a-b_c.d', 'https://example.com/~user/a-b_c.d']],
    same,
  ],
  ['http://x', [['http://x', 'http://x']], same],
  [
    'https://example.com,https://other.com',
    [
      ['https://example.com', 'https://example.com'],
      ['https://other.com', 'https://other.com'],
    ],
    same,
  ],
  [
    'https://api.github.com/repos/{owner}/{repo}',
    [['https://api.github.com/repos/{owner}/{repo}', 'https://api.github.com/repos/%7Bowner%7D/%7Brepo%7D']],
    same,
  ],
  // Unicode hosts go to the browser as ASCII.
  ['https://bücher.example/a', [['https://bücher.example/a', 'https://xn--bcher-kva.example/a']], same],
  ['http://例え.テスト/', [['http://例え.テスト/', 'http://xn--r8jz45g.xn--zckzah/']], same],
  // Trailing punctuation is not part of the link; balanced brackets are.
  ['see https://example.com.', [['https://example.com', 'https://example.com']], same],
  ['https://example.com/a?b=c, and', [['https://example.com/a?b=c', 'https://example.com/a?b=c']], same],
  [
    'https://example.com/a! https://example.com/b? https://example.com/c;',
    [
      ['https://example.com/a', 'https://example.com/a'],
      ['https://example.com/b', 'https://example.com/b'],
      ['https://example.com/c', 'https://example.com/c'],
    ],
    same,
  ],
  ['https://example.com/a...', [['https://example.com/a', 'https://example.com/a']], same],
  // A colon ends a sentence as a comma does.
  [
    'https://example.com/a:',
    [['https://example.com/a:', 'https://example.com/a:']],
    [['https://example.com/a', 'https://example.com/a']],
  ],
  [
    '"https://example.com/a" and \'https://example.com/b\'',
    [
      ['https://example.com/a', 'https://example.com/a'],
      ['https://example.com/b', 'https://example.com/b'],
    ],
    same,
  ],
  ["https://example.com/it's", [["https://example.com/it's", "https://example.com/it's"]], same],
  [
    'https://en.wikipedia.org/wiki/Foo_(bar)',
    [['https://en.wikipedia.org/wiki/Foo_(bar)', 'https://en.wikipedia.org/wiki/Foo_(bar)']],
    same,
  ],
  ['(see https://example.com/a).', [['https://example.com/a', 'https://example.com/a']], same],
  ['https://example.com/?q=(a)b', [['https://example.com/?q=(a)b', 'https://example.com/?q=(a)b']], same],
  ['[docs at https://x.org/a]', [['https://x.org/a', 'https://x.org/a']], same],
  // A bracket inside a path is part of it, as on GitHub.
  [
    'https://example.com/a)b',
    [['https://example.com/a', 'https://example.com/a']],
    [['https://example.com/a)b', 'https://example.com/a)b']],
  ],
  // Emphasis and strikethrough marks around a link are markdown, not the link.
  ['**https://example.com**', [['https://example.com', 'https://example.com']], same],
  ['_https://example.com_', [], [['https://example.com', 'https://example.com']]],
  [
    '~~https://x.org/a~~',
    [['https://x.org/a~~', 'https://x.org/a~~']],
    [['https://x.org/a', 'https://x.org/a']],
  ],
  // What ends a URL: <, ", `, non-ASCII punctuation.
  ['https://example.com/a<b', [['https://example.com/a', 'https://example.com/a']], same],
  ['https://example.com/a—b', [['https://example.com/a', 'https://example.com/a']], same],
  ['请看https://example.com/a。谢谢', [['https://example.com/a', 'https://example.com/a']], same],
  [
    'http://example.com/a"b"',
    [['http://example.com/a"b"', 'http://example.com/a%22b%22']],
    [['http://example.com/a', 'http://example.com/a']],
  ],
  [
    'https://x.org/`a`',
    [['https://x.org/`a`', 'https://x.org/%60a%60']],
    [['https://x.org/', 'https://x.org/']],
  ],
  [
    'https://example.com/a&quot;',
    [['https://example.com/a&quot', 'https://example.com/a&quot']],
    [['https://example.com/a', 'https://example.com/a']],
  ],
  // Markdown's own links, autolinks and code are markdown-it's.
  ['<https://example.com/a>', [['https://example.com/a', 'https://example.com/a']], same],
  ['[x](https://example.com)', [['x', 'https://example.com']], same],
  ['`https://example.com`', [], same],
  // www. hosts, as on GitHub (opened as https).
  ['www.example.com/path', [], [['www.example.com/path', 'https://www.example.com/path']]],
  ['see www.example.com.', [], [['www.example.com', 'https://www.example.com']]],
  ['*www.example.com:8080*', [], [['www.example.com:8080', 'https://www.example.com:8080']]],
  ['www.example.com/a_(b)', [], [['www.example.com/a_(b)', 'https://www.example.com/a_(b)']]],
  ['www.example', [], same],
  ['src/www.example.com', [], same],
  // Bare names are not web links in a chat about code.
  ['example.com github.com/foo/bar docs.rs sub.example.co.uk', [], same],
  ['foo.md index.ts README.md package.json node.js app.config.ts src/a.ts src/a.ts:12', [], same],
  ['v1.2.3 e.g. this, i.e. that, 1.5x a.b.c', [], same],
  ['192.168.0.1 127.0.0.1:8080 example.com:8080/x', [], same],
  ['git@github.com:a/b.git user@example.com', [], same],
  // Schemes the chat does not open were inert links; now they are text.
  ['mailto:user@example.com', [['mailto:user@example.com', 'mailto:user@example.com']], []],
  ['ftp://example.com/x', [['ftp://example.com/x', 'ftp://example.com/x']], []],
  ['//example.com/x', [['//example.com/x', '//example.com/x']], []],
  ['file:///etc/passwd javascript:alert(1) skype:foo', [], same],
  // A URL with user info reads as one host and opens another: text, not half a link.
  ['https://user:pw@example.com/', [['https://user', 'https://user']], []],
  ['https://google.com@evil.example/', [['https://google.com', 'https://google.com']], []],
  ['www.example.com@evil.example', [], same],
  // Not a URL.
  ['https:/example.com https://.com https:// xhttps://example.com https://x.com:123456/a', [], same],
];

describe('webview markdown libraries', () => {
  describe('autolinks (webview/markdown/linkify.ts, for linkify-it)', () => {
    it('records what linkify-it linked (the chat before)', () => {
      const md = markdown('library');
      assert.ok(md.linkify instanceof LinkifyItLibrary);
      for (const [text, before] of CORPUS) {
        assert.deepEqual(linksIn(md, text), before, text);
      }
    });

    it('links as linkify-it did, but for the differences the corpus names', () => {
      const md = markdown('ours');
      for (const [text, before, now] of CORPUS) {
        assert.deepEqual(linksIn(md, text), now === same ? before : now, text);
      }
    });

    it('makes only links the chat opens as web pages', () => {
      const md = markdown('ours');
      for (const [text] of CORPUS) {
        for (const [, href] of linksIn(md, text)) {
          assert.equal(classifyLink(href).kind, 'url', `${href} in ${text}`);
        }
      }
    });

    it('links nothing inside code, and links the rest of a block', () => {
      const md = markdown('ours');
      const html = md.render(
        '`https://a.example` https://b.example\n\n```\nhttps://c.example\n```\n\n    https://d.example\n',
      );
      assert.deepEqual(
        [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]),
        ['https://b.example'],
      );
    });

    it('answers test and matchAtStart as markdown-it asks them', () => {
      const linkify = new LinkifyIt();
      assert.equal(linkify.test('no links here: foo.md, user@example.com'), false);
      assert.equal(linkify.test('a www.example.com b'), true);
      assert.equal(linkify.match('plain'), null);
      assert.deepEqual(linkify.match('a www.example.com/x. b'), [
        {
          schema: '',
          index: 2,
          lastIndex: 19,
          raw: 'www.example.com/x',
          text: 'www.example.com/x',
          url: 'https://www.example.com/x',
        },
      ]);
      assert.equal(linkify.matchAtStart('see https://example.com'), null);
      assert.equal(linkify.matchAtStart('www.example.com'), null, 'markdown-it asks at a `://` only');
      assert.deepEqual(linkify.matchAtStart('HTTPS://example.com/a) b'), {
        schema: 'https:',
        index: 0,
        lastIndex: 21,
        raw: 'HTTPS://example.com/a',
        text: 'HTTPS://example.com/a',
        url: 'HTTPS://example.com/a',
      });
    });

    it('reads long runs of host-like or bracketed text once, not once per dot or bracket', () => {
      // Each of these takes minutes with a pattern that backtracks over the run or reads it again from
      // every `www.` or `)` in it; the suite's timeout is the bound.
      const linkify = new LinkifyIt();
      const urls = (text: string) => linkify.match(text)?.map((link) => link.url.slice(0, 40));
      assert.deepEqual(urls(`https://${'a.'.repeat(50_000)}a:123456 https://ok.example`), [
        'https://ok.example',
      ]);
      assert.deepEqual(urls(`${'www.'.repeat(50_000)}1 https://ok.example`), ['https://ok.example']);
      assert.deepEqual(urls(`https://example.com/${')'.repeat(50_000)}`), ['https://example.com/']);
      assert.deepEqual(urls(`https://example.com/${'.'.repeat(50_000)}`), ['https://example.com/']);
      assert.deepEqual(urls(`https://example.com/${'&a;'.repeat(50_000)}`), ['https://example.com/']);
    });
  });

  describe('Unicode classes (webview/markdown/ucmicro.ts, for uc.micro)', () => {
    it('calls the same code points punctuation or symbols as uc.micro, all of them', () => {
      const differ: string[] = [];
      for (let code = 0; code <= 0x10ffff; code++) {
        const char = String.fromCodePoint(code);
        const library = ucmicroLibrary.P.test(char) || ucmicroLibrary.S.test(char);
        if (library !== (ucmicro.P.test(char) || ucmicro.S.test(char))) {
          differ.push(code.toString(16));
        }
      }
      assert.deepEqual(differ, []);
    });
  });
});
