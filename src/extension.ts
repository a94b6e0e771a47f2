import * as vscode from 'vscode';
import { ChatViewProvider } from './vscode/chatViewProvider';

/** Composition root: build the objects, register them, hand every lifetime to VS Code. */
export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(
      ChatViewProvider.viewId,
      new ChatViewProvider(context.extensionUri),
    ),
  );
}

export function deactivate(): void {}
