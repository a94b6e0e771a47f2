import { openSync, readSync, closeSync } from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { AgentClient, type AgentClientOptions } from '../../../core/connection/agentClient';
import { DEFAULT_DEADLINES } from '../../../core/connection/deadlines';
import { signInMethodsOf } from '../../../core/connection/authMethods';
import type { AgentError } from '../../../core/connection/errors';
import { AgentExitedError, classifyError, errorDetails } from '../../../core/connection/errors';
import { ClientRefusalError, type ClientPorts } from '../../../core/ports';
import { StderrLines } from '../../../core/connection/stderrLines';
import { findOnPathAsync, spawnProgram, type Environment } from '../../../core/connection/spawnProgram';
import type { AgentDefinition } from '../../../chat/agentSettings';
import { installAdvice, type KnownAgent } from '../../../chat/agentPresets';
import type {
  AgentDiagnosis,
  AgentOrigin,
  AgentSaid,
  DoctorProblem,
  InitializeFindings,
  SessionFindings,
} from './diagnosis';
import { boundedText, MIN_NODE_MAJOR, sessionProblem, startProblem } from './doctorProblems';

export interface DoctorOptions {
  /** The folder agents start in (the workspace). */
  readonly cwd: string;
  /** Each step (version, initialize, session/new) may take this long (default 20 s). */
  readonly stepTimeoutMs?: number;
  /** session/new alone may take this long (default: the step timeout). */
  readonly sessionTimeoutMs?: number;
  /** The extension host's environment (PATH, …); the agent's own `env` is added over it. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly clientInfo?: AgentClientOptions['clientInfo'];
  /** The ACP Registry's agents, for the advice on a missing one (empty: generic advice). */
  readonly knownAgents?: readonly KnownAgent[];
  /**
   * Told each session the check opened (before it is ended): an agent that can neither close nor delete
   * a session still lists it, and the chat list leaves it out.
   */
  readonly onProbeSession?: (agentId: string, sessionId: string) => void;
}

/** How many of the agent's last stderr lines the check keeps (each made safe and bounded as it arrives). */
const SAID_LINES = 20;

/** Commands known to print their version with `--version` (a wrapper like `npx` would print its own). */
const HAS_VERSION_FLAG = new Set(['copilot', 'claude-agent-acp', 'gemini', 'codex-acp', 'opencode']);

const DEFAULT_STEP_TIMEOUT_MS = DEFAULT_DEADLINES.sessionMs;

/** Checks every agent in parallel; each step of each check has its own timeout. */
export function diagnoseAgents(
  agents: readonly { readonly agent: AgentDefinition; readonly origin: AgentOrigin }[],
  options: DoctorOptions,
): Promise<AgentDiagnosis[]> {
  return Promise.all(agents.map(({ agent, origin }) => diagnoseAgent(agent, origin, options)));
}

/**
 * Finds the command, asks its version, starts it and completes `initialize` (timed), reads its protocol
 * version, capabilities and sign-in methods, then tries `session/new` to learn whether it is signed in.
 * Never throws: every failure becomes a problem with a fix.
 */
export async function diagnoseAgent(
  agent: AgentDefinition,
  origin: AgentOrigin,
  options: DoctorOptions,
): Promise<AgentDiagnosis> {
  const started = performance.now();
  const stepTimeoutMs = options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
  const sessionTimeoutMs = options.sessionTimeoutMs ?? stepTimeoutMs;
  const env = { ...(options.env ?? process.env), ...agent.env };
  const problems: DoctorProblem[] = [];
  const finish = (found: Omit<AgentDiagnosis, 'agent' | 'origin' | 'problems' | 'ms'>): AgentDiagnosis => ({
    agent,
    origin,
    ...found,
    problems,
    ms: Math.round(performance.now() - started),
  });

  const foundAt = await findOnPathAsync(agent.command, env);
  if (!foundAt) {
    problems.push({
      problem: `\`${agent.command}\` was not found${agent.command.includes('/') || agent.command.includes('\\') ? '' : ' on PATH'}.`,
      fix: installAdvice(agent, options.knownAgents ?? []),
    });
    return finish({});
  }

  const { version, nodeVersion } = await programVersions(agent, foundAt, env, stepTimeoutMs, problems);

  const said: string[] = [];
  const stderr = new StderrLines((line) => {
    said.push(line);
    said.splice(0, said.length - SAID_LINES);
  });
  let client: AgentClient | undefined;
  try {
    const initStarted = performance.now();
    client = await AgentClient.start({
      agentId: agent.id,
      command: { command: agent.command, args: agent.args, env: agent.env, cwd: options.cwd },
      ports: refusingPorts,
      // The chat's own deadlines, each step given the check's time.
      deadlines: { startMs: stepTimeoutMs, sessionMs: sessionTimeoutMs, requestMs: stepTimeoutMs },
      ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}),
      // Advertised as the chat does, so the agent lists the ways to sign in the chat's Sign in offers.
      terminalAuth: true,
      onStderr: (text) => stderr.push(text),
      processOptions: { stopGraceMs: 1000 },
    });
    const initialize = initializeFindings(client, initStarted);
    const session = await trySession(client, options.cwd, (id) => options.onProbeSession?.(agent.id, id));
    if (!session.ok) {
      problems.push(sessionProblem(session, initialize.signInMethods, agent, said));
    }
    const stderrTail = session.ok ? [] : said;
    return finish({
      foundAt,
      version,
      nodeVersion,
      initialize,
      session,
      ...(stderrTail.length ? { stderrTail } : {}),
    });
  } catch (error) {
    const failure = classifyError(error);
    const exitTail = failure instanceof AgentExitedError ? failure.stderrTail : [];
    const stderrTail = exitTail.length > 0 ? exitTail : said;
    problems.push(startProblem(failure, agent, stderrTail));
    const startError = agentSaid(failure).details;
    return finish({
      foundAt,
      version,
      nodeVersion,
      ...(stderrTail.length ? { stderrTail: [...stderrTail] } : {}),
      ...(startError ? { startError } : {}),
    });
  } finally {
    await client?.stop().catch(() => undefined);
  }
}

/** The program's `--version` line (when it has the flag) and, for a Node program, the node it runs on. */
async function programVersions(
  agent: AgentDefinition,
  foundAt: string,
  env: NodeJS.ProcessEnv,
  stepTimeoutMs: number,
  problems: DoctorProblem[],
): Promise<{ version: string | undefined; nodeVersion: string | undefined }> {
  const runsOnNode = isNodeProgram(foundAt);
  const [version, nodeVersion] = await Promise.all([
    HAS_VERSION_FLAG.has(path.basename(agent.command))
      ? firstLineOf(foundAt, ['--version'], env, stepTimeoutMs)
      : Promise.resolve(undefined),
    runsOnNode ? nodeVersionFor(foundAt, env, stepTimeoutMs) : Promise.resolve(undefined),
  ]);
  const nodeMajor = nodeVersion ? Number(/^v?(\d+)/.exec(nodeVersion)?.[1]) : undefined;
  if (nodeMajor !== undefined && nodeMajor < MIN_NODE_MAJOR) {
    problems.push({
      problem: `This agent runs on Node.js, and the \`node\` on PATH is ${nodeVersion}.`,
      fix: `This agent needs Node ≥ ${MIN_NODE_MAJOR}: install a current Node.js (e.g. from nodejs.org or with nvm), then restart VS Code.`,
    });
  }
  return { version, nodeVersion };
}

/** What `initialize` answered: protocol version, name, capabilities and ways to sign in, and how long it took. */
function initializeFindings(client: AgentClient, initStarted: number): InitializeFindings {
  const info = client.info;
  return {
    ms: Math.round(performance.now() - initStarted),
    protocolVersion: info.protocolVersion,
    ...(info.agentInfo?.title || info.agentInfo?.name
      ? { agentName: info.agentInfo.title || info.agentInfo.name }
      : {}),
    ...(info.agentInfo?.version ? { agentVersion: info.agentInfo.version } : {}),
    capabilities: info.capabilities,
    signInMethods: signInMethodsOf(info.authMethods),
  };
}

async function trySession(
  client: AgentClient,
  cwd: string,
  opened: (sessionId: string) => void,
): Promise<SessionFindings> {
  const started = performance.now();
  try {
    const session = await client.newSession({ cwd });
    const ms = Math.round(performance.now() - started);
    opened(session.id);
    // The check's session is of no use to anyone: ended where the agent lets us, so it lists no empty chat.
    await client.discardSession(session.id);
    return { ok: true, ms };
  } catch (error) {
    const failure = classifyError(error);
    const message = boundedText(failure.message);
    return failure.kind === 'auth_required'
      ? { ok: false, signedIn: false, message, ...agentSaid(failure) }
      : { ok: false, signedIn: undefined, message, ...agentSaid(failure) };
  }
}

/** The failure's details, when the agent sent more than a message (a JSON-RPC code or data). */
function agentSaid(failure: AgentError): AgentSaid {
  const details = errorDetails(failure);
  return details.code !== undefined || details.data !== undefined ? { details } : {};
}

/** The doctor never prompts, so an agent that asks for files, terminals or permissions is refused. */
const refusingPorts: ClientPorts = {
  fileSystem: {
    readTextFile: () =>
      Promise.reject(new ClientRefusalError('The agent check does not share files.', 'not_available')),
    writeTextFile: () =>
      Promise.reject(new ClientRefusalError('The agent check does not write files.', 'not_available')),
  },
  permissions: { request: () => Promise.resolve({ outcome: 'cancelled' }) },
  terminals: {
    create: () =>
      Promise.reject(new ClientRefusalError('The agent check runs no commands.', 'not_available')),
    output: () => Promise.reject(new ClientRefusalError('No terminal.', 'not_available')),
    waitForExit: () => Promise.reject(new ClientRefusalError('No terminal.', 'not_available')),
    kill: () => Promise.resolve(),
    release: () => Promise.resolve(),
  },
};

/** Whether the program is Node itself or a script run by it (`#!/usr/bin/env node`, the npm global shims). */
function isNodeProgram(file: string): boolean {
  const base = path.basename(file).toLowerCase();
  if (base === 'node' || base === 'node.exe' || base === 'npx' || base === 'npx.cmd') {
    return true;
  }
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(128);
    const read = readSync(fd, head, 0, head.length, 0);
    return /^#!.*\bnode\b/.test(head.subarray(0, read).toString('utf8').split('\n')[0] ?? '');
  } catch {
    return false;
  } finally {
    if (fd !== undefined) {
      closeSync(fd);
    }
  }
}

/** `node --version` of the Node that runs the agent: the agent itself when it is `node`, else the one on PATH. */
async function nodeVersionFor(
  program: string,
  env: Environment,
  timeoutMs: number,
): Promise<string | undefined> {
  const base = path.basename(program).toLowerCase();
  const node = base === 'node' || base === 'node.exe' ? program : await findOnPathAsync('node', env);
  return node ? firstLineOf(node, ['--version'], env, timeoutMs) : undefined;
}

/** Runs a program (no shell) and returns the first non-empty line it printed, or undefined on failure or timeout. */
function firstLineOf(
  file: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs: number,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    let output = '';
    // npm-installed agents are `.cmd` shims on Windows: started like the agent itself.
    const child = spawnProgram(file, args, {
      env: env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      windowsHide: true,
    });
    const collect = (chunk: Buffer): void => {
      if (output.length < 4096) {
        output += chunk.toString('utf8');
      }
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.once('error', () => resolve(undefined));
    child.once('close', (code) => {
      const line = output
        .split(/\r?\n/)
        .map((l) => l.trim())
        .find((l) => l.length > 0);
      resolve(code === 0 && line ? boundedText(line, 120) : undefined);
    });
  });
}
