import type * as acp from '@agentclientprotocol/sdk';
import * as vscode from 'vscode';
import {
  parseMcpServerSettings,
  resolveMcpServers,
  secretNamesIn,
  type McpServerSetting,
} from '../chat/mcpSettings';
import { parseJsonc, vscodeMcpServers } from '../chat/vscodeMcpConfig';
import type { Logger } from '../../../core/ports';
import type { UserPrompts } from '../../../vscode/userPrompts';
import { acpSetting, setting } from '../../../vscode/settings';

const SECRET_KEY_PREFIX = 'acpAgents.mcpSecret.';

/**
 * The MCP servers given to agents' sessions: `acpAgents.mcpServers`, read at each session start, with
 * `${secret:NAME}` in env and header values filled from SecretStorage (set with "ACP: Set MCP Secret").
 * The resolved values go only into the session request; settings and the journal keep the reference.
 */
export class McpServerSource {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly prompts: UserPrompts,
    private readonly logger: Logger,
  ) {}

  /** The servers for a new, loaded or resumed session; bad entries and missing secrets are logged. */
  async servers(): Promise<acp.McpServer[]> {
    const parsed = parseMcpServerSettings(acpSetting('mcpServers'));
    for (const error of parsed.errors) {
      this.logger.warn(error);
    }
    const own = [...parsed.servers];
    // Ours first: a server of the same name in VS Code's configuration is then left out.
    const all =
      acpSetting('mcp.includeVsCodeServers') !== false ? [...own, ...(await this.vscodeServers())] : own;
    const resolved = await resolveMcpServers(all, (name) => this.secret(name));
    for (const problem of resolved.problems) {
      this.logger.warn(problem);
    }
    return resolved.servers;
  }

  /** The servers configured for VS Code itself: each folder's `.vscode/mcp.json` and the `mcp.servers` setting. */
  private async vscodeServers(): Promise<McpServerSetting[]> {
    const env = process.env;
    const found: McpServerSetting[] = [];
    const take = (raw: unknown, source: string, workspaceFolder?: string): void => {
      const result = vscodeMcpServers(raw, source, { ...(workspaceFolder ? { workspaceFolder } : {}), env });
      found.push(...result.servers);
      for (const reason of result.skipped) {
        this.logger.warn(reason);
      }
    };
    // An untrusted workspace's own files are not read at all (and no agent starts there anyway).
    const folders = vscode.workspace.isTrusted ? (vscode.workspace.workspaceFolders ?? []) : [];
    for (const folder of folders) {
      const file = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
      let text: string;
      try {
        text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
      } catch {
        continue; // no mcp.json in this folder
      }
      try {
        take(parseJsonc(text), vscode.workspace.asRelativePath(file), folder.uri.fsPath);
      } catch (error) {
        this.logger.warn(
          `${file.fsPath} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    const fromSettings = setting('mcp', 'servers');
    if (fromSettings !== undefined) {
      take(
        { servers: fromSettings },
        'settings "mcp.servers"',
        vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
      );
    }
    return found;
  }

  private async secret(name: string): Promise<string | undefined> {
    return this.secrets.get(SECRET_KEY_PREFIX + name);
  }

  /** Asks for a secret's name (offering those the settings refer to) and value, and keeps it in SecretStorage. */
  async askAndStore(name?: string): Promise<boolean> {
    const wanted =
      name ??
      (await this.prompts.text(
        'Name of the MCP secret',
        this.referencedNames().join(', ') || 'e.g. GITHUB_TOKEN',
      ));
    const trimmed = wanted?.trim();
    if (!trimmed) {
      return false;
    }
    const value = await this.prompts.secret(
      `Value of the MCP secret "${trimmed}" (kept in VS Code's secret storage)`,
    );
    if (value === undefined) {
      return false;
    }
    await this.store(trimmed, value);
    return true;
  }

  /** Keeps (or, with an empty value, forgets) a secret; agents get it from their next session on. */
  async store(name: string, value: string): Promise<void> {
    if (value === '') {
      await this.secrets.delete(SECRET_KEY_PREFIX + name);
      this.logger.info(`MCP secret "${name}" removed.`);
    } else {
      await this.secrets.store(SECRET_KEY_PREFIX + name, value);
      this.logger.info(`MCP secret "${name}" stored.`);
    }
  }

  /** The secret names `acpAgents.mcpServers` refers to, for the name prompt. */
  private referencedNames(): string[] {
    const parsed = parseMcpServerSettings(acpSetting('mcpServers'));
    const names = parsed.servers.flatMap((server) =>
      ('url' in server ? server.headers : server.env).flatMap((pair) => secretNamesIn(pair.value)),
    );
    return [...new Set(names)];
  }
}
