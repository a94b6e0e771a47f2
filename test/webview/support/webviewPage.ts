import { chatHtml, randomNonce } from '../../../src/vscode/chatHtml';

export type Theme = 'dark' | 'light';

/**
 * The chat page exactly as the extension gives it to VS Code (`chatHtml`, the same CSP and nonce rule),
 * with `origin` standing in for the webview's cspSource and resource URIs, plus only what VS Code itself
 * adds around every webview's HTML (workbench/contrib/webview/browser/pre/index.html):
 * - at the top of <head>, before the page's CSP applies: the `acquireVsCodeApi` script (our stand-in,
 *   fixture/vscodeStub.js), VS Code's default webview styles (fixture/webview-defaults.css) and the
 *   theme's `--vscode-*` variables (fixture/theme-<theme>.css);
 * - on <body>: the theme's class and `data-vscode-theme-kind`.
 * Nothing of the page itself is changed; a page that no longer has <head> or <body> fails loudly.
 */
export function webviewPage(
  origin: string,
  theme: Theme,
  { nonce = randomNonce(), markdownWorker = true }: { nonce?: string; markdownWorker?: boolean } = {},
): string {
  const html = chatHtml({
    cspSource: origin,
    codiconCssUri: `${origin}/dist/codicon.css`,
    chatCssUri: `${origin}/media/chat.css`,
    scriptUri: `${origin}/dist/webview.js`,
    // Without one the page plans all markdown on its main thread, as when a worker cannot start.
    markdownWorkerUri: markdownWorker ? `${origin}/dist/markdownWorker.js` : '',
    nonce,
  });
  const fixture = `${origin}/test/webview/fixture`;
  const injectedHead = [
    `<script src="${fixture}/vscodeStub.js"></script>`,
    `<link rel="stylesheet" href="${fixture}/webview-defaults.css">`,
    `<link rel="stylesheet" href="${fixture}/theme-${theme}.css">`,
  ].join('\n');
  const withHead = replaceOnce(html, '<head>', `<head>\n${injectedHead}`);
  return replaceOnce(
    withHead,
    '<body>',
    `<body class="vscode-${theme}" data-vscode-theme-kind="vscode-${theme}">`,
  );
}

function replaceOnce(html: string, tag: string, replacement: string): string {
  const at = html.indexOf(tag);
  if (at < 0 || html.indexOf(tag, at + 1) >= 0) {
    throw new Error(`chatHtml() must contain exactly one ${tag} for the webview host to fill in`);
  }
  return html.slice(0, at) + replacement + html.slice(at + tag.length);
}
