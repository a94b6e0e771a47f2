// No `vscode` import (lint-enforced): the webview test harness serves this exact page in Chromium, so what
// the tests load is what the extension gives VS Code.
import { randomBytes } from 'node:crypto';

/** What the chat page needs from its webview, as plain strings. */
export interface ChatHtmlInputs {
  /** The webview's `cspSource`: the origin its local resources are served from. */
  readonly cspSource: string;
  /** Webview URIs (`asWebviewUri`) of the assets the page loads. */
  readonly codiconCssUri: string;
  readonly chatCssUri: string;
  readonly scriptUri: string;
  /** The markdown worker's script (dist/markdownWorker.js), fetched by the page and started from a blob: URL. */
  readonly markdownWorkerUri: string;
  /** A fresh value per page (see `randomNonce`): only the script carrying it may run. */
  readonly nonce: string;
}

/**
 * The chat webview's HTML under a strict CSP: no inline code, scripts only with the page's nonce, styles,
 * images and fonts only from the extension (images also as data: URIs). Theme-independent: VS Code adds
 * the theme's CSS variables and its default styles around it.
 *
 * One worker, for markdown: a webview's resources are served from another origin than its page, and a
 * worker's script must be the page's own (`new Worker(resourceUri)` throws a SecurityError in VS Code and
 * code-server alike), so the page fetches the script from the extension (`connect-src`) and starts it
 * from a blob: URL it made itself (`worker-src blob:`). Neither lets anything run that the page's own
 * code does not start.
 */
export function chatHtml(inputs: ChatHtmlInputs): string {
  const { cspSource, nonce } = inputs;
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    `connect-src ${cspSource}`,
    'worker-src blob:',
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta name="acp-markdown-worker" content="${attribute(inputs.markdownWorkerUri)}">
<link rel="stylesheet" href="${attribute(inputs.codiconCssUri)}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${attribute(inputs.chatCssUri)}">
<title>ACP Agents</title>
</head>
<body>
<main id="app"></main>
<script type="module" nonce="${attribute(nonce)}" src="${attribute(inputs.scriptUri)}"></script>
</body>
</html>`;
}

/** 128 random bits, URL-safe: a CSP nonce no page content can guess. */
export function randomNonce(): string {
  return randomBytes(16).toString('base64url');
}

/** Escapes a value for a double-quoted attribute (URIs come from the extension's path, which may hold `"&<`). */
function attribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}
