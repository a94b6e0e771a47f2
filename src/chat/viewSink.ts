import type { AttachmentRef, HostMessage } from '../protocol';

/** Where the controller posts to a webview; the view provider adapts `vscode.Webview` to it. */
export interface ViewSink {
  post(message: HostMessage): void;
}

/** What the controller asks the editor to do on the view's behalf. */
export interface EditorActions {
  openFile(path: string, line?: number): Promise<void>;
  openUrl(url: string): Promise<void>;
  /** Runs the agent doctor and shows its report (ACP: Check Agents). */
  checkAgents(): Promise<void>;
  /** Shows the agents' output channel (ACP: Show Agent Log). */
  showLog?(): Promise<void>;
  /** Opens VS Code's workspace trust editor (the Restricted Mode notice's button). */
  manageTrust(): Promise<void>;
  /** Installs and adds an agent from the ACP Registry (ACP: Add Agent…). */
  addAgent?(): Promise<void>;
  /** The paperclip: the editor's file dialog; resolves the picked files (none when dismissed). */
  pickFiles?(): Promise<AttachmentRef[]>;
  /**
   * Shows agent terminal `terminalId` of session `sessionId` (the view's chat's) in the terminal panel,
   * opening it there if it had no terminal yet; rejects, saying why, when that session has no such terminal.
   */
  showTerminal?(terminalId: string, sessionId: string | undefined): Promise<void>;
  /** Shows `text` as a read-only markdown document titled `title`. */
  openReadOnly?(title: string, text: string): Promise<void>;
}
