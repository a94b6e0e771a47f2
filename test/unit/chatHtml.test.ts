import assert from 'node:assert/strict';
import { chatHtml, randomNonce } from '../../src/vscode/chatHtml';

describe('chatHtml: the chat webview page', () => {
  const inputs = {
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    codiconCssUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/codicon.css',
    chatCssUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/chat.css',
    scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
    markdownWorkerUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/markdownWorker.js',
    nonce: 'abc123',
  };

  it('allows only the nonce-carrying bundle to run, styles, images and fonts only from the extension, workers only from blob: URLs', () => {
    const html = chatHtml(inputs);
    const policy = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1];
    assert.equal(
      policy,
      "default-src 'none'; script-src 'nonce-abc123'; style-src https://file+.vscode-resource.vscode-cdn.net; " +
        'img-src https://file+.vscode-resource.vscode-cdn.net data:; font-src https://file+.vscode-resource.vscode-cdn.net; ' +
        "connect-src https://file+.vscode-resource.vscode-cdn.net; worker-src blob:",
    );
    assert.match(
      html,
      /<meta name="acp-markdown-worker" content="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/dist\/markdownWorker\.js">/,
    );
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    assert.deepEqual(scripts, [`<script type="module" nonce="abc123" src="${inputs.scriptUri}">`]);
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval|<style|style="/);
  });

  it('escapes a resource URI that would end its attribute', () => {
    const html = chatHtml({ ...inputs, chatCssUri: 'https://x/a"><script>alert(1)</script>&b' });
    assert.match(html, /href="https:\/\/x\/a&quot;>&lt;script>alert\(1\)&lt;\/script>&amp;b"/);
    assert.equal((html.match(/<script\b/g) ?? []).length, 1);
  });

  it('makes a different 128-bit nonce each time', () => {
    const nonces = new Set(Array.from({ length: 100 }, () => randomNonce()));
    assert.equal(nonces.size, 100);
    for (const nonce of nonces) {
      assert.match(nonce, /^[A-Za-z0-9_-]{22}$/);
    }
  });
});
