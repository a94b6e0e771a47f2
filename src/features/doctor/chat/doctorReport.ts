import type { AgentCapabilities } from '@agentclientprotocol/sdk';
import type { ErrorDetails } from '../../../core/thread/threadTypes';
import type { AgentDiagnosis, AgentOrigin } from './diagnosis';
import { scrubSecrets } from '../../../core/secrets/secrets';

/** Facts about the machine the report was made on, shown in its header. */
export interface ReportContext {
  readonly generatedAt: Date;
  readonly platform: string;
  /** The extension host's Node version. */
  readonly hostNode: string;
  readonly extensionVersion?: string;
  /** Whether the workspace is trusted: the report starts with it (in Restricted Mode nothing was started). */
  readonly trusted: boolean;
  /**
   * Agents the workspace's own settings define, listed (never run) in Restricted Mode so the user sees
   * what trusting the folder would start.
   */
  readonly workspaceAgents?: readonly { readonly label: string; readonly command: string }[];
}

const ORIGIN_LABEL: Readonly<Record<AgentOrigin, string>> = {
  configured: 'configured in `acpAgents.agents`',
  registry: 'added from the ACP Registry with _Add Agent…_',
  detected: 'detected on PATH',
  preset: 'known agent',
  'built-in': 'built in',
};

/**
 * The doctor's findings as a markdown report a person reads top to bottom: a summary line per agent,
 * then per agent what was checked and, for every problem, the fix.
 */
export function renderDoctorReport(diagnoses: readonly AgentDiagnosis[], context: ReportContext): string {
  const lines: string[] = [
    '# ACP agents check',
    '',
    `${context.generatedAt
      .toISOString()
      .replace('T', ' ')
      .replace(
        /\.\d+Z$/,
        ' UTC',
      )} · ${context.platform} · extension host Node ${context.hostNode}${context.extensionVersion ? ` · ACP Agents ${context.extensionVersion}` : ''}`,
    '',
    ...trustLines(context),
    '| Agent | Status | Found | Start (initialize) | Signed in |',
    '| --- | --- | --- | --- | --- |',
    ...diagnoses.map(summaryRow),
    '',
  ];
  for (const diagnosis of diagnoses) {
    lines.push(...agentSection(diagnosis), '');
  }
  lines.push(
    '---',
    '',
    'Each check ran in parallel with a time limit per step. Run _ACP: Check Agents_ again after a fix; _ACP: Show Agent Log_ (log level Trace) shows every protocol message of the chat’s agents.',
    '',
  );
  // A file on disk that people paste into bug reports: no secret value in use may be in it.
  return scrubSecrets(lines.join('\n'));
}

/** The report's first paragraph: the workspace trust state, and in Restricted Mode what was not run. */
function trustLines(context: ReportContext): string[] {
  if (context.trusted) {
    return ['**Workspace trust:** trusted — agents were started in the workspace folder to check them.', ''];
  }
  const lines = [
    '**Workspace trust: Restricted Mode.** This workspace is not trusted, so no agent was started or looked up: an agent can read, write and run anything in the workspace. Settings that name programs or servers are taken from your user settings only. To check (and chat with) agents here, run _Manage Workspace Trust_ (`workbench.trust.manage`) and trust the folder if you trust its authors.',
    '',
  ];
  const defined = context.workspaceAgents ?? [];
  if (defined.length > 0) {
    lines.push(
      'Agents this workspace’s settings define (not checked: this workspace is not trusted):',
      '',
      ...defined.map((agent) => `- ${escapeMarkdown(agent.label)}: ${code(agent.command)}`),
      '',
    );
  }
  return lines;
}

/** One word for how the agent is doing. */
export function verdictOf(
  diagnosis: AgentDiagnosis,
): 'ready' | 'not installed' | 'not signed in' | 'problem' | 'not checked' {
  if (diagnosis.notChecked) {
    return 'not checked';
  }
  if (!diagnosis.foundAt) {
    return 'not installed';
  }
  if (diagnosis.session && !diagnosis.session.ok && diagnosis.session.signedIn === false) {
    return 'not signed in';
  }
  return diagnosis.session?.ok && diagnosis.problems.length === 0 ? 'ready' : 'problem';
}

// Symbols every UI font has (an emoji font is not a given in a webview or a headless browser).
const VERDICT_BADGE = {
  ready: '✓ ready',
  'not installed': '– not installed',
  'not signed in': '! not signed in',
  problem: '✗ problem',
  'not checked': '– not checked',
} as const;

function summaryRow(diagnosis: AgentDiagnosis): string {
  const found = diagnosis.notChecked ? '—' : diagnosis.foundAt ? 'yes' : 'no';
  const start = diagnosis.initialize ? `${diagnosis.initialize.ms} ms` : diagnosis.foundAt ? 'failed' : '—';
  const signedIn = !diagnosis.session
    ? '—'
    : diagnosis.session.ok
      ? 'yes'
      : diagnosis.session.signedIn === false
        ? 'no'
        : 'unknown';
  return `| ${cell(diagnosis.agent.label)} | ${VERDICT_BADGE[verdictOf(diagnosis)]} | ${found} | ${start} | ${signedIn} |`;
}

function agentSection(diagnosis: AgentDiagnosis): string[] {
  const { agent } = diagnosis;
  const lines = [
    `## ${heading(agent.label)} — ${verdictOf(diagnosis)}`,
    '',
    `- **Command:** ${code([agent.command, ...agent.args].join(' '))} (${ORIGIN_LABEL[diagnosis.origin]})`,
  ];
  if (diagnosis.notChecked) {
    lines.push(`- **Status:** ${diagnosis.notChecked}`);
  } else {
    lines.push(`- **Found:** ${diagnosis.foundAt ? code(diagnosis.foundAt) : 'no'}`);
  }
  if (diagnosis.version) {
    lines.push(`- **Version (\`--version\`):** ${code(diagnosis.version)}`);
  }
  if (diagnosis.nodeVersion) {
    lines.push(`- **Node.js:** ${code(diagnosis.nodeVersion)}`);
  }
  const init = diagnosis.initialize;
  if (init) {
    const who = [init.agentName, init.agentVersion].filter(Boolean).join(' ');
    lines.push(
      `- **initialize:** answered in ${init.ms} ms${who ? ` by ${escapeMarkdown(who)}` : ''}, ACP protocol version ${init.protocolVersion}`,
      `- **Capabilities:** ${capabilityList(init.capabilities)}`,
      `- **Sign-in methods:** ${
        init.signInMethods.length === 0
          ? 'none advertised'
          : init.signInMethods
              .map((m) => `${escapeMarkdown(m.name)} (${m.kind.replace('_', ' ')})`)
              .join(', ')
      }`,
    );
  }
  const session = diagnosis.session;
  if (session) {
    lines.push(
      session.ok
        ? `- **Session:** created in ${session.ms} ms — signed in and ready`
        : `- **Session:** could not be created — ${escapeMarkdown(session.message)}`,
    );
    if (!session.ok && session.details) {
      lines.push(...agentErrorLines(session.details));
    }
  }
  if (diagnosis.startError) {
    lines.push(...agentErrorLines(diagnosis.startError));
  }
  lines.push(`- **Checked in:** ${diagnosis.ms} ms`);
  if (diagnosis.problems.length > 0) {
    lines.push('', '**Problems**', '');
    for (const { problem, fix } of diagnosis.problems) {
      lines.push(`- ${problem}`, `  - **Fix:** ${fix}`);
    }
  }
  if (diagnosis.stderrTail && diagnosis.stderrTail.length > 0) {
    lines.push(
      '',
      `Agent output (last ${diagnosis.stderrTail.length} lines):`,
      '',
      ...fenced(diagnosis.stderrTail, 'text'),
    );
  }
  return lines;
}

/** What the agent can do, as a person would name it (the ACP field in parentheses). */
export function capabilityList(capabilities: AgentCapabilities): string {
  const prompt = capabilities.promptCapabilities ?? {};
  const sessions = capabilities.sessionCapabilities ?? {};
  const mcp = capabilities.mcpCapabilities ?? {};
  const flags: [string, boolean][] = [
    ['images', Boolean(prompt.image)],
    ['audio', Boolean(prompt.audio)],
    ['embedded context', Boolean(prompt.embeddedContext)],
    ['load session', Boolean(capabilities.loadSession)],
    ['resume session', sessions.resume !== undefined && sessions.resume !== null],
    ['list sessions', sessions.list !== undefined && sessions.list !== null],
    ['MCP over HTTP', Boolean(mcp.http)],
    ['MCP over SSE', Boolean(mcp.sse)],
  ];
  const yes = flags.filter(([, on]) => on).map(([name]) => name);
  const no = flags.filter(([, on]) => !on).map(([name]) => name);
  // The client offers files and terminals to every agent; whether it uses them is not advertised.
  return `${yes.length > 0 ? yes.join(', ') : 'none beyond text prompts'}${no.length > 0 ? `; not: ${no.join(', ')}` : ''} (this client offers file read/write and terminals)`;
}

function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${text}${fence}`;
}

function heading(text: string): string {
  return escapeMarkdown(text).replace(/\n/g, ' ');
}

function cell(text: string): string {
  return escapeMarkdown(text).replace(/\|/g, '\\|');
}

/** Agent-provided text shown as text, not markup. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>#]/g, (c) => `\\${c}`);
}

/** What the agent sent with its error — the JSON-RPC code and its `data` as sent (bounded) — as list lines. */
function agentErrorLines(details: ErrorDetails): string[] {
  const lines = [
    `- **The agent's error:** ${details.code === undefined ? escapeMarkdown(details.kind) : `code ${details.code}`}`,
  ];
  if (details.data !== undefined) {
    lines.push('', ...fenced(details.data.split('\n')).map((line) => `  ${line}`), '');
  }
  return lines;
}

/** The agent's lines as a code block whose fence is longer than any run of backticks in them: kept as sent. */
function fenced(lines: readonly string[], info = ''): string[] {
  const longestRun = Math.max(
    0,
    ...lines.flatMap((line) => line.match(/`+/g) ?? []).map((run) => run.length),
  );
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return [`${fence}${info}`, ...lines, fence];
}
