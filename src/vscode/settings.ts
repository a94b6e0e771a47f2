import * as z from 'zod/mini';
import * as vscode from 'vscode';
import type { Retention } from '../core/journal/journal';
import { DEFAULT_DEADLINES, type RequestDeadlines } from '../core/connection/deadlines';
import type { FileSettings } from './workspaceFileSystem';

/**
 * The settings a workspace must not set in Restricted Mode (also `restrictedConfigurations` in
 * package.json): they name a program, its arguments or environment, a server, or relax a safety default.
 */
export const RESTRICTED_SETTINGS: ReadonlySet<string> = new Set([
  'acpAgents.agents',
  'acpAgents.defaultAgent',
  'acpAgents.copilotAgent',
  'acpAgents.mcpServers',
  'acpAgents.mcp.includeVsCodeServers',
  'acpAgents.edits.review',
  'acpAgents.files.maxReadBytes',
  'acpAgents.permissions.autoApproveReads',
  'acpAgents.permissions.rememberInWorkspace',
  'acpAgents.permissions.ask',
  // VS Code's own MCP servers, which we pass on to agents.
  'mcp.servers',
]);

/**
 * A setting's value as the code may use it. In an untrusted workspace a restricted setting is the
 * user's own value (or the default), never the workspace's or folder's: VS Code also ignores those once
 * the setting is declared restricted, and this keeps it so whatever VS Code does.
 */
export function setting(section: string, key: string): unknown {
  const config = vscode.workspace.getConfiguration(section);
  if (vscode.workspace.isTrusted || !RESTRICTED_SETTINGS.has(`${section}.${key}`)) {
    return config.get<unknown>(key);
  }
  const inspected = config.inspect<unknown>(key);
  return inspected?.globalValue ?? inspected?.defaultValue;
}

/** `setting('acpAgents', key)`. */
export function acpSetting(key: string): unknown {
  return setting('acpAgents', key);
}

/**
 * Where the value of `acpAgents.<key>` that the code uses comes from, when the workspace's own settings
 * set it (its folder's or the workspace's): what the consent question names. Undefined when the value is
 * the user's or the default — and always in Restricted Mode, where the workspace's values are not used.
 */
export function workspaceSourceOf(key: string): string | undefined {
  if (!vscode.workspace.isTrusted) {
    return undefined;
  }
  const inspected = vscode.workspace.getConfiguration('acpAgents').inspect<unknown>(key);
  if (inspected?.workspaceFolderValue !== undefined) {
    return `a folder's settings ("acpAgents.${key}")`;
  }
  return inspected?.workspaceValue !== undefined ? `the workspace settings ("acpAgents.${key}")` : undefined;
}

/** The workspace's own value of a setting (what it would set, trusted or not), for reports only: never run it. */
export function workspaceValueOf(section: string, key: string): unknown {
  const inspected = vscode.workspace.getConfiguration(section).inspect<unknown>(key);
  return inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
}

const FileSettingsSchema = z.object({
  maxReadBytes: z.catch(z.number().check(z.int(), z.positive()), 2 * 1024 * 1024),
});

/** `acpAgents.files.maxReadBytes`, validated; a bad value falls back to the default. */
export function fileSettings(): FileSettings {
  return FileSettingsSchema.parse({ maxReadBytes: acpSetting('files.maxReadBytes') });
}

const HistorySchema = z.object({
  maxChats: z.catch(z.number().check(z.int(), z.positive()), 100),
  maxMegabytes: z.catch(z.number().check(z.positive()), 200),
});

/** `acpAgents.history.*`: how many chats (and how many megabytes of journal) are kept. */
export function historyRetention(): Retention {
  const config = vscode.workspace.getConfiguration('acpAgents');
  const parsed = HistorySchema.parse({
    maxChats: config.get('history.maxChats'),
    maxMegabytes: config.get('history.maxMegabytes'),
  });
  return { maxChats: parsed.maxChats, maxBytes: parsed.maxMegabytes * 1024 * 1024 };
}

/** `acpAgents.agentIdleMinutes`: an idle agent process is stopped after this long (0: never). */
export function agentIdleStopMs(): number {
  const value = vscode.workspace.getConfiguration('acpAgents').get<unknown>('agentIdleMinutes');
  const minutes = typeof value === 'number' && value >= 0 ? value : 15;
  return minutes * 60_000;
}

export function defaultAgentId(): string | undefined {
  const value = acpSetting('defaultAgent');
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `acpAgents.copilotAgent`: the configured agent "Send to Copilot" uses (empty: recognise it by its command). */
export function copilotAgentName(): string | undefined {
  const value = acpSetting('copilotAgent');
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** `acpAgents.chat.maxMessageCharacters`: a message keeps this many characters from its start (and a quarter as many of its end). */
export function maxMessageChars(): number {
  const value = vscode.workspace.getConfiguration('acpAgents').get('chat.maxMessageCharacters');
  return z.catch(z.number().check(z.int(), z.gte(10_000)), 1_000_000).parse(value);
}

/** `acpAgents.timeouts.*` (seconds, 1–3600): each kind of request's deadline; a bad value falls back to the default. */
export function requestDeadlines(): RequestDeadlines {
  const config = vscode.workspace.getConfiguration('acpAgents');
  const ms = (key: string, fallback: number): number => {
    const seconds = config.get<unknown>(`timeouts.${key}`);
    return typeof seconds === 'number' && seconds >= 1 && seconds <= 3600 ? seconds * 1000 : fallback;
  };
  return {
    startMs: ms('startSeconds', DEFAULT_DEADLINES.startMs),
    sessionMs: ms('sessionSeconds', DEFAULT_DEADLINES.sessionMs),
    signInMs: ms('signInSeconds', DEFAULT_DEADLINES.signInMs),
    requestMs: ms('requestSeconds', DEFAULT_DEADLINES.requestMs),
  };
}
