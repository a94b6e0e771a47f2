import * as vscode from 'vscode';
import type { ChatController } from '../chat/chatController';
import { chatHtml, randomNonce } from './chatHtml';

/**
 * Sets up a webview (the sidebar view or an editor tab) to run the chat bundle under a strict CSP
 * (scripts only from dist/ by nonce, styles and fonts only from the extension) and connects it to
 * the chat controller, which sends it the full state once it says it is ready. Dispose to disconnect.
 */
export function connectChatWebview(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  controller: ChatController,
  log: vscode.LogOutputChannel,
): vscode.Disposable {
  const dist = vscode.Uri.joinPath(extensionUri, 'dist');
  const media = vscode.Uri.joinPath(extensionUri, 'media');
  webview.options = { enableScripts: true, localResourceRoots: [dist, media] };
  const asset = (base: vscode.Uri, file: string): string =>
    webview.asWebviewUri(vscode.Uri.joinPath(base, file)).toString();
  webview.html = chatHtml({
    cspSource: webview.cspSource,
    codiconCssUri: asset(dist, 'codicon.css'),
    chatCssUri: asset(media, 'chat.css'),
    scriptUri: asset(dist, 'webview.js'),
    nonce: randomNonce(),
  });
  const sink = {
    post: (message: unknown) => {
      webview
        .postMessage(message)
        .then(undefined, (error: unknown) => log.warn(`postMessage failed: ${String(error)}`));
    },
  };
  const attachment = controller.attachView(sink);
  const received = webview.onDidReceiveMessage(
    (message: unknown) => void controller.handleMessage(message, sink),
  );
  return vscode.Disposable.from(attachment, received);
}
