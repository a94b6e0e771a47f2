import assert from 'node:assert/strict';
import { chatHtml } from '../../src/vscode/chatHtml';
import { useChatPages } from './support/suite';

/**
 * The page every webview suite loads is the extension's own (`chatHtml`, as connectChatWebview gives it to
 * VS Code), so what these suites prove holds under the CSP users really get.
 */
describe('webview: the test page is the page the extension serves', () => {
  const chat = useChatPages();

  it('is chatHtml() byte for byte, plus only what VS Code adds to every webview', async () => {
    const page = await chat.open();
    const url = new URL(page.page.url());
    const served = await (await fetch(url)).text();
    const nonce = /<script type="module" nonce="([^"]+)"/.exec(served)?.[1];
    assert.ok(nonce, 'the page has a module script with a nonce');
    const origin = url.origin;
    const own = chatHtml({
      cspSource: origin,
      codiconCssUri: `${origin}/dist/codicon.css`,
      chatCssUri: `${origin}/media/chat.css`,
      scriptUri: `${origin}/dist/webview.js`,
      markdownWorkerUri: `${origin}/dist/markdownWorker.js`,
      nonce,
    });
    // VS Code's additions: its API script, default styles and theme variables at the top of <head>, the
    // theme on <body>. Take exactly those away and the extension's page must remain.
    const fixture = `${origin}/test/webview/fixture`;
    const withoutHost = served
      .replace(
        `<head>\n<script src="${fixture}/vscodeStub.js"></script>\n` +
          `<link rel="stylesheet" href="${fixture}/webview-defaults.css">\n` +
          `<link rel="stylesheet" href="${fixture}/theme-dark.css">\n`,
        '<head>\n',
      )
      .replace('<body class="vscode-dark" data-vscode-theme-kind="vscode-dark">', '<body>');
    assert.equal(withoutHost, own);
    // The page in the browser has that policy, with its own fresh nonce (each load gets a new one).
    const loaded = await page.page.evaluate(() => ({
      policy: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content'),
      nonce: document.querySelector<HTMLScriptElement>('script[type="module"]')?.nonce,
    }));
    assert.ok(loaded.nonce && loaded.nonce !== nonce, 'a fresh nonce per page');
    assert.equal(
      loaded.policy,
      `default-src 'none'; script-src 'nonce-${loaded.nonce}'; style-src ${origin}; img-src ${origin} data:; ` +
        `font-src ${origin}; connect-src ${origin}; worker-src blob:`,
    );
  });

  it('starts a worker only from a blob: URL, and fetches only from the extension', async () => {
    const page = await chat.open();
    const outcome = await page.page.evaluate(async () => {
      // A worker from a URL, even the page's own origin: blocked (only the page's blob: URLs may run).
      const urlWorker = await new Promise<string>((resolve) => {
        try {
          const worker = new Worker('/dist/markdownWorker.js');
          worker.onmessage = () => resolve('ran');
          worker.onerror = () => resolve('blocked');
        } catch (error) {
          resolve(String(error));
        }
      });
      let foreignFetch = 'fetched';
      try {
        await fetch('http://localhost:9/elsewhere');
      } catch (error) {
        foreignFetch = String(error);
      }
      for (let i = 0; i < 200 && window.__cspViolations.length < 2; i++) {
        await new Promise(requestAnimationFrame);
      }
      return { urlWorker, foreignFetch, violations: [...window.__cspViolations] };
    });
    assert.equal(outcome.urlWorker, 'blocked');
    assert.match(outcome.foreignFetch, /Failed to fetch/);
    assert.equal(outcome.violations.length, 2, outcome.violations.join('\n'));
    assert.match(outcome.violations.join('\n'), /worker-src blocked http:\/\/127\.0\.0\.1:\d+\/dist\/markdownWorker\.js/);
    assert.match(outcome.violations.join('\n'), /connect-src blocked http:\/\/localhost:9\/elsewhere/);
    // These violations were the point of the test, not problems of the view.
    page.problems.length = 0;
  });

  it('blocks inline code and scripts without the nonce, as VS Code would', async () => {
    const page = await chat.open();
    const ran = await page.page.evaluate(async () => {
      const inline = document.createElement('script');
      inline.textContent = 'window.__xss = 1';
      document.body.append(inline);
      const foreign = document.createElement('script');
      foreign.src = '/test/webview/fixture/vscodeStub.js';
      document.body.append(foreign);
      const style = document.createElement('style');
      style.textContent = 'body { display: none }';
      document.head.append(style);
      // The violations are reported asynchronously: wait for all three.
      for (let i = 0; i < 200 && window.__cspViolations.length < 3; i++) {
        await new Promise(requestAnimationFrame);
      }
      return window.__xss;
    });
    assert.equal(ran, undefined, 'the inline script did not run');
    const violations = await page.page.evaluate(() => window.__cspViolations);
    assert.equal(violations.length, 3, violations.join('\n'));
    assert.match(violations.join('\n'), /script-src-elem blocked inline/);
    assert.match(
      violations.join('\n'),
      /script-src-elem blocked http:\/\/127\.0\.0\.1:\d+\/test\/webview\/fixture\/vscodeStub\.js/,
    );
    assert.match(violations.join('\n'), /style-src-elem blocked inline/);
    assert.notEqual(
      await page.page.evaluate(() => getComputedStyle(document.body).display),
      'none',
      'the inline style was not applied',
    );
    // These violations were the point of the test, not problems of the view.
    page.problems.length = 0;
  });
});
