import type * as vscode from 'vscode';
import type { Logger } from '../core/ports';

/** The core's logger on a VS Code LogOutputChannel ("ACP Agents" in the Output panel). */
export function channelLogger(channel: vscode.LogOutputChannel): Logger {
  return {
    trace: (message) => channel.trace(message),
    info: (message) => channel.info(message),
    warn: (message) => channel.warn(message),
    error: (message) => channel.error(message),
  };
}
