import * as vscode from 'vscode';
import type { ChatController } from '../chat/chatController';

/**
 * The sidebar chat view. Serves the webview bundle under a strict CSP (scripts only from dist/
 * by nonce, styles and fonts only from the extension) and connects each webview instance to the
 * chat controller; the controller re-sends the full state whenever a webview says it is ready.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'acpAgents.chat';
  private view: vscode.WebviewView | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: ChatController,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get isVisible(): boolean {
    return this.view?.visible ?? false;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [dist, media] };
    view.webview.html = this.html(view.webview, dist, media);

    const webview = view.webview;
    const attachment = this.controller.attachView({
      post: (message) => {
        webview
          .postMessage(message)
          .then(undefined, (error: unknown) => this.log.warn(`postMessage failed: ${String(error)}`));
      },
    });
    const received = webview.onDidReceiveMessage(
      (message: unknown) => void this.controller.handleMessage(message),
    );
    const disposed = view.onDidDispose(() => {
      attachment.dispose();
      received.dispose();
      disposed.dispose();
      if (this.view === view) {
        this.view = undefined;
      }
    });
    this.subscriptions.push(attachment, received, disposed);
  }

  /** Shows the chat view (and its container). */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
  }

  private html(webview: vscode.Webview, dist: vscode.Uri, media: vscode.Uri): string {
    const nonce = randomNonce();
    const asset = (base: vscode.Uri, file: string): string =>
      webview.asWebviewUri(vscode.Uri.joinPath(base, file)).toString();
    const csp = [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src ${webview.cspSource}`,
      `img-src ${webview.cspSource} data:`,
      `font-src ${webview.cspSource}`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset(dist, 'codicon.css')}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${asset(media, 'chat.css')}">
<title>ACP Agents</title>
</head>
<body>
<main id="app"></main>
<script type="module" nonce="${nonce}" src="${asset(dist, 'webview.js')}"></script>
</body>
</html>`;
  }

  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) {
      subscription.dispose();
    }
  }
}

function randomNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString('base64url');
}
