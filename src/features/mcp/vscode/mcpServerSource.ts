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
import { acpSetting, setting, workspaceValueOf } from '../../../vscode/settings';
import { secretValues } from '../../../core/secrets/secrets';
import type { WorkspaceConsent } from '../../../chat/workspaceConsent';
import type { WorkspaceMcpServer } from '../chat/mcpConsent';
import { askMcpConsent } from './mcpConsentPrompt';

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
    /** The user's answers for the programs the workspace defines (its agents too). */
    readonly consent: WorkspaceConsent,
  ) {}

  /** The servers for a new, loaded or resumed session; bad entries and missing secrets are logged. */
  async servers(): Promise<acp.McpServer[]> {
    const parsed = parseMcpServerSettings(await this.ownSettings());
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

  /**
   * `acpAgents.mcpServers`: the workspace's list when a trusted workspace sets one — each entry only
   * once the user allowed it — else the user's own.
   */
  private async ownSettings(): Promise<unknown> {
    const fromWorkspace = vscode.workspace.isTrusted
      ? workspaceValueOf('acpAgents', 'mcpServers')
      : undefined;
    if (!Array.isArray(fromWorkspace)) {
      return acpSetting('mcpServers');
    }
    const allowed: unknown[] = [];
    for (const entry of fromWorkspace as unknown[]) {
      const name = (entry as { name?: unknown } | null)?.name;
      const server = {
        name: typeof name === 'string' ? name : '?',
        source: 'workspace settings "acpAgents.mcpServers"',
        definition: entry,
      };
      if (await this.allowed(server)) {
        allowed.push(entry);
      }
    }
    return allowed;
  }

  /** Whether the user allowed this server from the workspace (asked once per definition). */
  private allowed(server: WorkspaceMcpServer): Promise<boolean> {
    return this.consent.allowed(server, (item) => askMcpConsent(this.prompts, item));
  }

  /**
   * Gives `take` each server of a workspace-defined MCP configuration the user allowed (asked once
   * per definition); a server not allowed is left out before any of its variables is filled in.
   */
  private async takeAllowed(raw: unknown, source: string, take: (config: unknown) => void): Promise<void> {
    const servers = serversOf(raw);
    if (!servers) {
      take(raw); // not an MCP configuration: vscodeMcpServers says why
      return;
    }
    for (const [name, definition] of Object.entries(servers)) {
      if (await this.allowed({ name, source, definition })) {
        take({ servers: { [name]: definition } });
      } else {
        this.logger.info(`${source}: MCP server "${name}" not given to agents (not allowed).`);
      }
    }
  }

  /** The servers configured for VS Code itself: each folder's `.vscode/mcp.json` and the `mcp.servers` setting. */
  private async vscodeServers(): Promise<McpServerSetting[]> {
    const env = process.env;
    const found: McpServerSetting[] = [];
    const take = (raw: unknown, source: string, workspaceFolder?: string): void => {
      rememberEnvSecrets(raw, env);
      const result = vscodeMcpServers(raw, source, { ...(workspaceFolder ? { workspaceFolder } : {}), env });
      found.push(...result.servers);
      for (const reason of result.skipped) {
        this.logger.warn(reason);
      }
    };
    const inFiles = await this.mcpJsonServers(take);
    const firstFolder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const fromWorkspace = vscode.workspace.isTrusted ? workspaceValueOf('mcp', 'servers') : undefined;
    if (fromWorkspace !== undefined) {
      const source = 'workspace settings "mcp.servers"';
      // VS Code reads each folder's .vscode/mcp.json into its "mcp" settings too: a server that file
      // defines is taken (and asked about) once, as the file's.
      await this.takeAllowed(withoutServers({ servers: fromWorkspace }, inFiles), source, (allowed) =>
        take(allowed, source, firstFolder),
      );
    } else {
      const fromUser = setting('mcp', 'servers');
      if (fromUser !== undefined) {
        take({ servers: fromUser }, 'settings "mcp.servers"', firstFolder);
      }
    }
    return found;
  }

  /** Takes the allowed servers of each folder's `.vscode/mcp.json`; returns the names those files define. */
  private async mcpJsonServers(
    take: (raw: unknown, source: string, workspaceFolder?: string) => void,
  ): Promise<Set<string>> {
    const names = new Set<string>();
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
      let config: unknown;
      try {
        config = parseJsonc(text);
      } catch (error) {
        this.logger.warn(
          `${file.fsPath} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
        );
        continue;
      }
      const source = vscode.workspace.asRelativePath(file);
      for (const name of Object.keys(serversOf(config) ?? {})) {
        names.add(name);
      }
      await this.takeAllowed(config, source, (allowed) => take(allowed, source, folder.uri.fsPath));
    }
    return names;
  }

  private async secret(name: string): Promise<string | undefined> {
    const value = await this.secrets.get(SECRET_KEY_PREFIX + name);
    if (value !== undefined) {
      secretValues.add(name, value); // scrubbed from every log, view, journal and report from now on
    }
    return value;
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

/**
 * The environment variables an MCP configuration fills into its servers (`${env:NAME}`): often tokens,
 * so their values are scrubbed like secrets (a server config is the one place we copy them from).
 */
function rememberEnvSecrets(raw: unknown, env: Readonly<Record<string, string | undefined>>): void {
  for (const match of JSON.stringify(raw ?? null).matchAll(/\$\{env:([^}]+)\}/g)) {
    const name = match[1] as string;
    const value = env[name];
    if (value !== undefined) {
      secretValues.add(`env:${name}`, value);
    }
  }
}

/** A configuration's `servers` object; undefined when it has none (the parser then says why). */
function serversOf(raw: unknown): Record<string, unknown> | undefined {
  const servers = (raw as { servers?: unknown } | null)?.servers;
  return typeof servers === 'object' && servers !== null && !Array.isArray(servers)
    ? (servers as Record<string, unknown>)
    : undefined;
}

/** The configuration without the servers named `names` (one without a `servers` object is left for the parser to refuse). */
function withoutServers(raw: { servers: unknown }, names: ReadonlySet<string>): unknown {
  const servers = serversOf(raw);
  return servers ? { servers: Object.fromEntries(Object.entries(servers).filter(([name]) => !names.has(name))) } : raw;
}
