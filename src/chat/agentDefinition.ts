import type { WorkspaceDefinition } from './workspaceConsent';

/** An agent the chat can start: a setting, or the built-in demo agent. */
export interface AgentDefinition {
  readonly id: string;
  readonly label: string;
  readonly description?: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /**
   * The ACP Registry entry it is: the one it was added from (Add Agent…), or a preset's. Two definitions
   * with one registry id are one agent, whatever program line each runs.
   */
  readonly registryId?: string;
  /**
   * Set when the workspace's own settings define it (not the user's): it runs only once the user allowed
   * this definition (`WorkspaceConsent`), however trusted the folder.
   */
  readonly origin?: WorkspaceDefinition;
}
