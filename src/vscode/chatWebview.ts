import * as vscode from 'vscode';
import type { ChatController } from '../chat/chatController';
import { chatHtml, randomNonce } from './chatHtml';
import type { ViewSink } from '../chat/viewSink';
import type { HostMessage } from '../protocol';
import { ViewPosts } from '../chat/viewPosts';

/** How a webview joins the chat. */
export interface ChatWebviewOptions {
  /** A chat of its own (an editor tab), named or new; without it the view shows the window's chat. */
  readonly own?: { readonly chatId?: string };
  /** Sees each message posted to the view (an editor tab takes its title from it). */
  readonly onPost?: (message: HostMessage) => void;
}

/** A webview connected to the chat; dispose to disconnect. */
export interface ChatWebviewConnection extends vscode.Disposable {
  /** The view as the controller knows it. */
  readonly sink: ViewSink;
}

/**
 * Sets up a webview (the sidebar view or an editor tab) to run the chat bundle under a strict CSP
 * (scripts only from dist/ by nonce, styles and fonts only from the extension) and connects it to
 * the chat controller, which sends it the full state once it says it is ready.
 */
export function connectChatWebview(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  controller: ChatController,
  log: vscode.LogOutputChannel,
  options: ChatWebviewOptions = {},
): ChatWebviewConnection {
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
    markdownWorkerUri: asset(dist, 'markdownWorker.js'),
    nonce: randomNonce(),
  });
  const posts = new ViewPosts((post) => {
    webview
      .postMessage(post)
      .then(undefined, (error: unknown) => log.warn(`postMessage failed: ${String(error)}`));
  });
  const sink: ViewSink = {
    post: (message) => {
      options.onPost?.(message);
      posts.post(message);
    },
  };
  const attachment = controller.attachView(sink, options.own);
  const received = webview.onDidReceiveMessage((message: unknown) => {
    posts.received(message);
    void controller.handleMessage(message, sink);
  });
  const connection = vscode.Disposable.from(attachment, received, posts);
  return { sink, dispose: () => connection.dispose() };
}
