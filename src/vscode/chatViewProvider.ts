import * as vscode from 'vscode';

/**
 * The sidebar chat view. Serves the webview bundle under a strict CSP: scripts only from dist/
 * by nonce, styles only from the extension, nothing else.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider {
  static readonly viewId = 'acpAgents.chat';

  constructor(private readonly extensionUri: vscode.Uri) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [dist, media] };
    const nonce = randomNonce();
    const script = view.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js'));
    const csp = [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src ${view.webview.cspSource}`,
      `img-src ${view.webview.cspSource} data:`,
      `font-src ${view.webview.cspSource}`,
    ].join('; ');
    view.webview.html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>ACP Agents</title>
</head>
<body>
<main id="app"></main>
<script type="module" nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
  }
}

function randomNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString('base64url');
}
