import type * as acp from '@agentclientprotocol/sdk';
import * as vscode from 'vscode';
import { parseMcpServerSettings, resolveMcpServers, secretNamesIn } from '../chat/mcpSettings';
import type { Logger } from '../core/ports';
import type { UserPrompts } from './userPrompts';

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
    const parsed = parseMcpServerSettings(vscode.workspace.getConfiguration('acpAgents').get('mcpServers'));
    for (const error of parsed.errors) {
      this.logger.warn(error);
    }
    const resolved = await resolveMcpServers(parsed.servers, (name) => this.secret(name));
    for (const problem of resolved.problems) {
      this.logger.warn(problem);
    }
    return resolved.servers;
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
    const parsed = parseMcpServerSettings(vscode.workspace.getConfiguration('acpAgents').get('mcpServers'));
    const names = parsed.servers.flatMap((server) =>
      ('url' in server ? server.headers : server.env).flatMap((pair) => secretNamesIn(pair.value)),
    );
    return [...new Set(names)];
  }
}
