import type * as vscode from 'vscode';
import { plainText } from '../core/thread/agentText';
import type { Logger } from '../core/ports';
import { scrubSecrets } from '../core/secrets/secrets';

/**
 * The core's logger on a VS Code LogOutputChannel ("ACP Agents" in the Output panel). Every line is
 * made plain (no terminal escapes or control characters) and has the secret values in use scrubbed:
 * the log file is on disk and gets pasted into bug reports.
 */
export function channelLogger(channel: vscode.LogOutputChannel): Logger {
  const safe = (message: string): string => scrubSecrets(plainText(message));
  return {
    trace: (message) => channel.trace(safe(message)),
    info: (message) => channel.info(safe(message)),
    warn: (message) => channel.warn(safe(message)),
    error: (message) => channel.error(safe(message)),
  };
}
