import type { HostMessage } from '../../protocol';

/** Where the controller posts to a webview; the view provider adapts `vscode.Webview` to it. */
export interface ViewSink {
  post(message: HostMessage): void;
}

/** What the controller asks the editor to do on the view's behalf. */
export interface EditorActions {
  openFile(path: string, line?: number): Promise<void>;
  openUrl(url: string): Promise<void>;
}
