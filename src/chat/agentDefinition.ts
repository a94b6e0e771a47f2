/** An agent the chat can start: a setting, or the built-in demo agent. */
export interface AgentDefinition {
  readonly id: string;
  readonly label: string;
  readonly description?: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}
