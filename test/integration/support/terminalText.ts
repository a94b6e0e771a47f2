import * as vscode from 'vscode';
import { eventually } from './waits';

/**
 * What a terminal shows, trailing blank rows dropped: selected and copied in the workbench (the API cannot
 * read a terminal), polled until it contains `expected`. The clipboard is put back afterwards.
 */
export async function terminalText(terminal: vscode.Terminal, expected: string): Promise<string> {
  const clipboard = await vscode.env.clipboard.readText();
  let last = '';
  try {
    terminal.show(true);
    return await eventually(
      `the terminal to show ${JSON.stringify(expected)}`,
      async () => {
        await vscode.commands.executeCommand('workbench.action.terminal.selectAll');
        await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
        last = (await vscode.env.clipboard.readText()).replace(/\r\n/g, '\n').trimEnd();
        return last.includes(expected) && last;
      },
      10_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; it showed ${JSON.stringify(last)}`);
    });
  } finally {
    await vscode.env.clipboard.writeText(clipboard);
    await vscode.commands.executeCommand('workbench.action.closePanel');
  }
}
