import * as os from 'node:os';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { WorkspaceHost } from '../chat/workspaceService';

export const DEFAULT_MAX_STORAGE_MB = 2048;

// zod's numbers are finite: Infinity and NaN fall back to the default.
const MaxStorageSchema = z.catch(z.number().check(z.gte(1)), DEFAULT_MAX_STORAGE_MB);

/** `acpAgents.checkpoints.maxStorageMB` in bytes: the cap on the checkpoint storage. */
export function maxCheckpointStorageBytes(): number {
  const value = vscode.workspace.getConfiguration('acpAgents').get<unknown>('checkpoints.maxStorageMB');
  return MaxStorageSchema.parse(value ?? DEFAULT_MAX_STORAGE_MB) * 1024 * 1024;
}

/** The workspace as VS Code tells it: trust, folders, the extension's storage folders, the cap setting. */
export function vscodeWorkspaceHost(
  context: Pick<vscode.ExtensionContext, 'storageUri' | 'globalStorageUri'>,
  inform: (message: string) => void,
): WorkspaceHost {
  return {
    trusted: () => vscode.workspace.isTrusted,
    onDidGrantTrust: (listener) => vscode.workspace.onDidGrantWorkspaceTrust(listener),
    folders: () => (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath),
    onDidChangeFolders: (listener) => vscode.workspace.onDidChangeWorkspaceFolders(listener),
    inform,
    storageCandidates: () =>
      [context.storageUri, context.globalStorageUri]
        .filter((uri): uri is vscode.Uri => uri !== undefined)
        .map((uri) => uri.fsPath),
    maxStorageBytes: maxCheckpointStorageBytes,
    home: os.homedir(),
  };
}
