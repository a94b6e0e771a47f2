import * as vscode from 'vscode';

/**
 * Changes settings of one section (default `acpAgents`) at user level — the run's temporary profile, so
 * nothing in the repository changes — and restores them.
 */
export class Settings {
  private readonly saved = new Map<string, unknown>();

  constructor(private readonly section = 'acpAgents') {}

  async set(key: string, value: unknown): Promise<void> {
    const config = vscode.workspace.getConfiguration(this.section);
    if (!this.saved.has(key)) {
      this.saved.set(key, config.inspect(key)?.globalValue);
    }
    await config.update(key, value, vscode.ConfigurationTarget.Global);
  }

  async restore(): Promise<void> {
    const config = vscode.workspace.getConfiguration(this.section);
    for (const [key, value] of this.saved) {
      await config.update(key, value, vscode.ConfigurationTarget.Global);
    }
    this.saved.clear();
  }
}
