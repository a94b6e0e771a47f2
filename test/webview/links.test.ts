import assert from 'node:assert/strict';
import { classifyLink } from '../../webview/links';

describe('webview links (classifyLink)', () => {
  it('opens http(s) links as web pages', () => {
    assert.deepEqual(classifyLink('https://example.com/a?b=1#c'), {
      kind: 'url',
      url: 'https://example.com/a?b=1#c',
    });
    assert.deepEqual(classifyLink('HTTP://Example.com'), { kind: 'url', url: 'http://example.com/' });
  });

  it('opens absolute, relative and file:// paths as files, with the line', () => {
    assert.deepEqual(classifyLink('/work/app/main.ts'), { kind: 'file', path: '/work/app/main.ts' });
    assert.deepEqual(classifyLink('/work/app/main.ts:12'), {
      kind: 'file',
      path: '/work/app/main.ts',
      line: 12,
    });
    assert.deepEqual(classifyLink('/work/app/main.ts:12:5'), {
      kind: 'file',
      path: '/work/app/main.ts',
      line: 12,
    });
    assert.deepEqual(classifyLink('src/a.ts#L30'), { kind: 'file', path: 'src/a.ts', line: 30 });
    assert.deepEqual(classifyLink('src/a.ts#L30-L40'), { kind: 'file', path: 'src/a.ts', line: 30 });
    assert.deepEqual(classifyLink('file:///work/my%20app/x.ts#L7'), {
      kind: 'file',
      path: '/work/my app/x.ts',
      line: 7,
    });
    assert.deepEqual(classifyLink('file:///C:/Users/me/x.ts'), { kind: 'file', path: 'C:/Users/me/x.ts' });
    assert.deepEqual(classifyLink('C:\\Users\\me\\x.ts:3'), {
      kind: 'file',
      path: 'C:\\Users\\me\\x.ts',
      line: 3,
    });
    assert.deepEqual(classifyLink('file://server/share/x.ts'), { kind: 'file', path: '//server/share/x.ts' });
  });

  it('makes every other scheme, anchors and protocol-relative links inert', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      ' javascript:alert(1)',
      '\u0001javascript:alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html,<script>alert(1)</script>',
      'mailto:a@b.c',
      'command:workbench.action.quit',
      'vscode://settings',
      '#section',
      '//evil.example/x',
      '',
      '   ',
    ]) {
      assert.deepEqual(classifyLink(href), { kind: 'inert' }, href);
    }
  });

  it('ignores a zero or absurd line', () => {
    assert.deepEqual(classifyLink('/a.ts:0'), { kind: 'file', path: '/a.ts' });
    assert.deepEqual(classifyLink('/a.ts#L99999999999999999999'), { kind: 'file', path: '/a.ts' });
  });
});
