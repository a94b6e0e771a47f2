import * as os from 'node:os';
import * as vscode from 'vscode';
import * as z from 'zod';
import { plainText } from '../../../core/thread/agentText';
import { scrubSecrets } from '../../../core/secrets/secrets';
import { notAllowedDiagnosis, notCheckedDiagnosis } from '../chat/restrictedCheck';
import type { WorkspaceDefinition } from '../../../chat/workspaceConsent';
import type { ProbeSessions } from '../../../chat/probeSessions';
import { diagnoseAgents } from '../chat/agentDoctor';
import type { AgentDiagnosis, AgentOrigin } from '../chat/diagnosis';
import type { KnownAgent } from '../../../chat/agentPresets';
import type { AgentDefinition } from '../../../chat/agentSettings';
import { agentsToCheck } from '../chat/agentsToCheck';
import { renderDoctorReport, verdictOf } from '../chat/doctorReport';
import type { AgentCatalog } from '../../../vscode/agentCatalog';
import { processRuns } from '../../../core/connection/processRuns';

export interface CheckAgentsDeps {
  readonly catalog: AgentCatalog;
  readonly log: vscode.LogOutputChannel;
  /** The folder agents start in. */
  readonly cwd: () => string;
  /** Where the report is written (the extension's global storage). */
  readonly storage: vscode.Uri;
  readonly extensionVersion: string;
  /** Parses a settings file (JSON with comments): to list, never run, what an untrusted workspace defines. */
  readonly parseJsonc: (text: string) => unknown;
  /** The ACP Registry's agents, for the advice on a missing one. */
  readonly knownAgents?: () => Promise<readonly KnownAgent[]>;
  /** Whether an agent the workspace's own settings define may run (asked once per definition). */
  readonly allowProgram?: (agent: AgentDefinition, origin: WorkspaceDefinition) => Promise<boolean>;
  /** Where the sessions the check opens are noted, so the chat list leaves them out. */
  readonly probeSessions?: ProbeSessions;
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
 * The doctor is a bundle of its own (`dist/doctor.js`), loaded by the command's first run (see chatHost.ts).
 */
export async function checkAgents(deps: CheckAgentsDeps): Promise<CheckAgentsResult> {
  const agents = agentsToCheck(deps.catalog.agents.agents);
  // Read when the command runs: trust can be granted between two checks.
  const trusted = vscode.workspace.isTrusted;
  const diagnoses = trusted
    ? await diagnoseAllowed(agents, deps)
    : agents.map(({ agent, origin }) => notCheckedDiagnosis(agent, origin));
  for (const diagnosis of diagnoses) {
    const problems = diagnosis.problems.map((p) => p.problem).join(' ');
    deps.log.info(
      scrubSecrets(
        plainText(
          `Check agents: ${diagnosis.agent.label}: ${verdictOf(diagnosis)}${problems ? ` — ${problems}` : ''}`,
        ),
      ),
    );
  }
  // The report is a file on disk that people paste into bug reports: no secret value in it.
  const markdown = renderDoctorReport(diagnoses, {
    generatedAt: new Date(),
    platform: `${os.platform()}-${os.arch()}`,
    hostNode: process.version,
    extensionVersion: deps.extensionVersion,
    trusted,
    ...(trusted ? {} : { workspaceAgents: await workspaceDefinedAgents(deps.parseJsonc) }),
  });
  const reportUri = await writeReport(deps.storage, markdown);
  await showReport(reportUri, deps.log);
  if (diagnoses.some((diagnosis) => verdictOf(diagnosis) === 'not installed')) {
    void vscode.window
      .showInformationMessage('ACP Agents: some agents are not installed.', ADD_AGENT)
      .then((answer) => answer === ADD_AGENT && vscode.commands.executeCommand('acpAgents.addAgent'));
  }
  return { diagnoses, markdown, reportUri };
}

/** Runs the doctor on the agents that may run: one the workspace's settings define only once allowed. */
async function diagnoseAllowed(
  agents: readonly { agent: AgentDefinition; origin: AgentOrigin }[],
  deps: CheckAgentsDeps,
): Promise<AgentDiagnosis[]> {
  const refused = new Set<AgentDefinition>();
  for (const { agent } of agents) {
    if (agent.origin && deps.allowProgram && !(await deps.allowProgram(agent, agent.origin))) {
      refused.add(agent);
    }
  }
  const checked = await diagnose(
    agents.filter(({ agent }) => !refused.has(agent)),
    deps,
  );
  return agents.map(
    ({ agent, origin }) => checked.find((d) => d.agent === agent) ?? notAllowedDiagnosis(agent, origin),
  );
}

/** Runs the doctor (trusted workspaces only: it starts every agent in the workspace folder). */
async function diagnose(
  agents: readonly { agent: AgentDefinition; origin: AgentOrigin }[],
  deps: CheckAgentsDeps,
): Promise<AgentDiagnosis[]> {
  const knownAgents = await deps.knownAgents?.().catch((error: unknown) => {
    deps.log.warn(`Check agents: the ACP Registry could not be read (${String(error)}).`);
    return [];
  });
  return vscode.window.withProgress(
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
        knownAgents: knownAgents ?? [],
        onProbeSession: (agentId, sessionId) => void deps.probeSessions?.remember(agentId, sessionId),
      }),
  );
}

/**
 * The agents the workspace's own settings define (parsed, never run), listed in a Restricted Mode report.
 * Read from each folder's `.vscode/settings.json`: in Restricted Mode VS Code hides a workspace's values of
 * restricted settings, even from `inspect()`.
 */
async function workspaceDefinedAgents(
  parseJsonc: (text: string) => unknown,
): Promise<{ label: string; command: string }[]> {
  const found: { label: string; command: string }[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    try {
      const file = vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json');
      const settings = parseJsonc(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)));
      found.push(...agentsIn((settings as Record<string, unknown> | null)?.['acpAgents.agents']));
    } catch {
      // No settings file, or not valid JSON: nothing to list.
    }
  }
  return found;
}

function agentsIn(raw: unknown): { label: string; command: string }[] {
  if (!Array.isArray(raw)) {
    return [];
  }
  return raw.flatMap((entry: unknown) => {
    const parsed = WorkspaceAgentSchema.safeParse(entry);
    return parsed.success
      ? [
          {
            label: parsed.data.label ?? parsed.data.id ?? parsed.data.command,
            command: [parsed.data.command, ...parsed.data.args].join(' '),
          },
        ]
      : [];
  });
}

const WorkspaceAgentSchema = z.object({
  id: z.string().optional(),
  label: z.string().optional(),
  command: z.string(),
  args: z.array(z.string()).catch([]),
});

const ADD_AGENT = 'Add Agent…';

/**
 * Each window writes its own report (`reports/<extension host pid>/agent-check.md`), so a preview
 * restored in one window never shows another window's agents; the folders of windows that are gone
 * are removed.
 */
async function writeReport(storage: vscode.Uri, markdown: string): Promise<vscode.Uri> {
  const reports = vscode.Uri.joinPath(storage, 'reports');
  const mine = vscode.Uri.joinPath(reports, String(process.pid));
  await vscode.workspace.fs.createDirectory(mine);
  const reportUri = vscode.Uri.joinPath(mine, 'agent-check.md');
  await vscode.workspace.fs.writeFile(reportUri, new TextEncoder().encode(markdown));
  for (const [name] of await vscode.workspace.fs.readDirectory(reports)) {
    if (/^\d+$/.test(name) && Number(name) !== process.pid && !processRuns(Number(name))) {
      await vscode.workspace.fs
        .delete(vscode.Uri.joinPath(reports, name), { recursive: true })
        .then(undefined, () => undefined);
    }
  }
  return reportUri;
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
