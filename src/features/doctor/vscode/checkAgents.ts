import * as os from 'node:os';
import * as vscode from 'vscode';
import { diagnoseAgents } from '../chat/agentDoctor';
import type { AgentDiagnosis, AgentOrigin } from '../chat/diagnosis';
import { AGENT_PRESETS } from '../../../chat/agentPresets';
import { DEMO_AGENT_ID, type AgentDefinition } from '../../../chat/agentSettings';
import { renderDoctorReport, verdictOf } from '../chat/doctorReport';
import type { AgentCatalog } from '../../../vscode/agentCatalog';

export interface CheckAgentsDeps {
  readonly catalog: AgentCatalog;
  readonly log: vscode.LogOutputChannel;
  /** The folder agents start in. */
  readonly cwd: () => string;
  /** Where the report is written (the extension's global storage). */
  readonly storage: vscode.Uri;
  readonly extensionVersion: string;
}

/** What the command returns (for tests and other extensions): the findings and where the report is. */
export interface CheckAgentsResult {
  readonly diagnoses: readonly AgentDiagnosis[];
  readonly markdown: string;
  readonly reportUri: vscode.Uri;
}

/**
 * "ACP: Check Agents": runs the agent doctor on every agent the chat offers plus the known agents not
 * installed, and shows the report as a markdown preview (a file in global storage, so closing it asks nothing).
 */
export function registerCheckAgents(deps: CheckAgentsDeps): vscode.Disposable {
  return vscode.commands.registerCommand('acpAgents.checkAgents', async (): Promise<CheckAgentsResult> => {
    const agents = agentsToCheck(deps.catalog.agents.agents);
    const diagnoses = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `ACP Agents: checking ${agents.length} agent${agents.length === 1 ? '' : 's'}…`,
      },
      () =>
        diagnoseAgents(agents, {
          cwd: deps.cwd(),
          clientInfo: {
            name: 'acp-agents-vscode',
            title: 'ACP Agents for VS Code',
            version: deps.extensionVersion,
          },
        }),
    );
    for (const diagnosis of diagnoses) {
      const problems = diagnosis.problems.map((p) => p.problem).join(' ');
      deps.log.info(
        `Check agents: ${diagnosis.agent.label}: ${verdictOf(diagnosis)}${problems ? ` — ${problems}` : ''}`,
      );
    }
    const markdown = renderDoctorReport(diagnoses, {
      generatedAt: new Date(),
      platform: `${os.platform()}-${os.arch()}`,
      hostNode: process.version,
      extensionVersion: deps.extensionVersion,
    });
    await vscode.workspace.fs.createDirectory(deps.storage);
    const reportUri = vscode.Uri.joinPath(deps.storage, 'agent-check.md');
    await vscode.workspace.fs.writeFile(reportUri, new TextEncoder().encode(markdown));
    await showReport(reportUri, deps.log);
    return { diagnoses, markdown, reportUri };
  });
}

/** The chat's agents (configured, detected, or the demo), then the known agents it does not offer. */
function agentsToCheck(
  offered: readonly AgentDefinition[],
): { agent: AgentDefinition; origin: AgentOrigin }[] {
  const originOf = (agent: AgentDefinition): AgentOrigin =>
    agent.id === DEMO_AGENT_ID
      ? 'built-in'
      : AGENT_PRESETS.some((preset) => preset.id === agent.id)
        ? 'detected'
        : 'configured';
  const checked = offered.map((agent) => ({ agent, origin: originOf(agent) }));
  const missing = AGENT_PRESETS.filter(
    (preset) => !offered.some((agent) => agent.command === preset.command),
  );
  return [...checked, ...missing.map((agent) => ({ agent, origin: 'preset' as const }))];
}

async function showReport(uri: vscode.Uri, log: vscode.LogOutputChannel): Promise<void> {
  try {
    await vscode.commands.executeCommand('markdown.showPreview', uri);
  } catch (error) {
    // The built-in markdown extension can be disabled: the text is readable on its own.
    log.warn(`Markdown preview unavailable (${String(error)}); opening the report as text.`);
    await vscode.window.showTextDocument(uri, { preview: true });
  }
}
