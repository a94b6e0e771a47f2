import type { AgentClient, AgentClientOptions } from '../core/connection/agentClient';
import { withWriteNotes, type WriteNotes } from './writeNotes';
import { Emitter, type Disposable } from '../core/util/disposable';
import { AgentError, AgentTimeoutError, classifyError } from '../core/connection/errors';
import { looksFatal, StderrLines } from '../core/connection/stderrLines';
import type { ClientPorts, Logger } from '../core/ports';
import type { AgentStatus } from '../protocol';
import type { AgentDefinition, ParsedAgents } from './agentSettings';
import type { WorkspaceDefinition } from './workspaceConsent';
import type { SignInPort } from './signIn';
import { failedStatus, isSessionSetup, readyStatus } from './agentStatuses';

export interface AgentPoolDeps {
  readonly agents: () => ParsedAgents;
  readonly cwd: () => string;
  readonly ports: ClientPorts & { readonly logger: Logger };
  readonly clientOptions?: Partial<AgentClientOptions>;
  /**
   * Starts an agent and its connection (`AgentClient.start`). The connection — the ACP SDK and its
   * schemas — is a bundle of its own (`dist/connection.js`), loaded by the chat's host with the first start.
   */
  readonly startClient: (options: AgentClientOptions) => Promise<AgentClient>;
  readonly signIn?: SignInPort;
  /** False in an untrusted workspace: then no agent is started. */
  readonly trusted?: () => boolean;
  /** Shows progress (a notification) while an agent starts. */
  readonly progress?: <T>(title: string, work: Promise<T>) => Promise<T>;
  /** An agent with no running turn is stopped after this long (when it can resume its sessions). */
  readonly idleStopMs?: () => number;
  /** Told before our own fs/write_text_file writes a file (see ./writeNotes). */
  readonly writeNotes?: WriteNotes;
  /**
   * Whether an agent the workspace's own settings define (`origin`) may run: asks the user once per
   * definition (`WorkspaceConsent`). Absent: such agents run as the user's do.
   */
  readonly allowProgram?: (agent: AgentDefinition, origin: WorkspaceDefinition) => Promise<boolean>;
}

/** Crashes within this window count toward the backoff. */
const CRASH_WINDOW_MS = 60_000;
const MAX_CRASHES = 5;

interface Runtime {
  client?: AgentClient;
  starting?: Promise<AgentClient>;
  status: AgentStatus;
  /** When the process ended without being asked to, most recent last. */
  crashes: number[];
  busy: boolean;
  idleTimer?: ReturnType<typeof setTimeout>;
  /**
   * Aborted by a stop while a start runs: it ends the crash backoff wait, stops the process being brought
   * up, and the start hands out no client.
   */
  startAbort?: AbortController;
  /** How many waits for the agent (a start, a session's setup) are going on: its fatal stderr lines show meanwhile. */
  waiting: number;
  /** It did not answer a session's setup in time: the next use starts it afresh rather than wait on it again. */
  wedged?: AgentClient;
}

/** A stop came while the agent was starting: the start hands out nothing and its process is stopped. */
class StoppedWhileStartingError extends AgentError {
  constructor(agentName: string) {
    super('cancelled', `${agentName} was stopped while it was starting.`);
    this.name = 'StoppedWhileStartingError';
  }
}

/**
 * The agent processes: each agent in its own process, started lazily on first use, stopped when
 * idle for a while and on dispose, restarted after a crash on the next use — with a growing
 * delay, and not at all after repeated crashes until the user asks — so a broken agent cannot
 * spin in a restart loop.
 */
export class AgentPool implements Disposable {
  private readonly runtimes = new Map<string, Runtime>();
  private readonly statusEmitter = new Emitter<{ readonly agentId: string; readonly status: AgentStatus }>();
  readonly onStatus = this.statusEmitter.event;

  constructor(private readonly host: AgentPoolDeps) {}

  status(agentId: string): AgentStatus {
    return this.runtimes.get(agentId)?.status ?? { state: 'idle' };
  }

  /** The running client of an agent, started when needed. Rejects with a classified `AgentError`. */
  client(agentId: string): Promise<AgentClient> {
    const runtime = this.runtime(agentId);
    // A client whose connection is gone is never handed out, even while its process lingers.
    if (runtime.client && runtime.client.connected && runtime.wedged !== runtime.client) {
      return Promise.resolve(runtime.client);
    }
    if (!runtime.starting) {
      const starting: Promise<AgentClient> = this.replaceWedged(runtime)
        .then(() => this.start(agentId, runtime))
        .finally(() => {
          // Only its own: a stop during the start lets the next use begin a new one at once.
          if (runtime.starting === starting) {
            runtime.starting = undefined;
          }
        });
      runtime.starting = starting;
    }
    return runtime.starting;
  }

  /**
   * While `work` (a start, a session's setup) waits on the agent, the agent's fatal-looking stderr lines
   * are put on its status as they arrive (`said`), so the chat shows the agent's reason before any deadline.
   */
  async watchSetup<T>(agentId: string, work: Promise<T>): Promise<T> {
    const runtime = this.runtime(agentId);
    runtime.waiting++;
    try {
      return await work;
    } finally {
      runtime.waiting--;
      if (runtime.waiting === 0 && runtime.status.said !== undefined) {
        const { said: _said, ...rest } = runtime.status;
        this.setStatus(agentId, runtime, rest);
      }
    }
  }

  /** An agent that did not answer a session's setup is stopped before it is started again. */
  private async replaceWedged(runtime: Runtime): Promise<void> {
    const wedged = runtime.wedged;
    runtime.wedged = undefined;
    if (wedged && runtime.client === wedged) {
      runtime.client = undefined;
      this.host.ports.logger.info(`Restarting ${wedged.info.name}: it did not answer a session's setup.`);
      await wedged.stop();
    }
  }

  /** The client if it is running now, without starting it. */
  running(agentId: string): AgentClient | undefined {
    const client = this.runtimes.get(agentId)?.client;
    return client && client.connected ? client : undefined;
  }

  /** Marks the agent busy (a turn runs) or idle; idle agents are stopped after the idle time. */
  setBusy(agentId: string, busy: boolean): void {
    const runtime = this.runtime(agentId);
    runtime.busy = busy;
    if (runtime.idleTimer) {
      clearTimeout(runtime.idleTimer);
      runtime.idleTimer = undefined;
    }
    const client = runtime.client;
    // Read only when the agent goes idle: a Send marks it busy on the path its prompt waits for.
    const idleMs = busy || !client ? 0 : (this.host.idleStopMs?.() ?? 0);
    const caps = client?.info.capabilities;
    // An agent that cannot load or resume its sessions would lose them: keep it running.
    if (!client || idleMs <= 0 || (!caps?.loadSession && !caps?.sessionCapabilities?.resume)) {
      return;
    }
    runtime.idleTimer = setTimeout(() => {
      this.host.ports.logger.info(`Stopping ${client.info.name}: idle for ${Math.round(idleMs / 1000)} s.`);
      void this.stop(agentId);
    }, idleMs);
    runtime.idleTimer.unref?.();
  }

  /** Stops the agent's process (its sessions end with it). */
  async stop(agentId: string): Promise<void> {
    const runtime = this.runtimes.get(agentId);
    if (!runtime) {
      return;
    }
    const starting = runtime.starting;
    if (starting) {
      // The start stops the process it makes; waiting for it means no process outlives the stop.
      runtime.starting = undefined;
      runtime.startAbort?.abort();
      await starting.then(
        () => undefined,
        () => undefined,
      );
    }
    const client = runtime.client;
    if (!client) {
      return;
    }
    runtime.client = undefined;
    if (runtime.idleTimer) {
      clearTimeout(runtime.idleTimer);
    }
    await client.stop();
    this.setStatus(agentId, runtime, { state: 'idle' });
  }

  /** Stops and starts again, forgetting earlier crashes (the user asked for it). */
  async restart(agentId: string): Promise<AgentClient> {
    await this.stop(agentId);
    this.runtime(agentId).crashes = [];
    return this.client(agentId);
  }

  /** Reports a failure that belongs to the agent (e.g. sign-in required at session creation). */
  report(agentId: string, error: unknown): void {
    const runtime = this.runtime(agentId);
    if (error instanceof AgentTimeoutError && isSessionSetup(error.method)) {
      runtime.wedged = runtime.client;
    }
    this.setStatus(agentId, runtime, this.errorStatus(agentId, error, runtime.client));
  }

  /** Back to ready after a reported failure was dealt with. */
  clearReport(agentId: string): void {
    const runtime = this.runtime(agentId);
    if (runtime.status.state === 'error' && runtime.client && runtime.client.connected) {
      this.setStatus(agentId, runtime, readyStatus(runtime.client, this.label(agentId, runtime.client)));
    }
  }

  private async start(agentId: string, runtime: Runtime): Promise<AgentClient> {
    const agent = this.definition(agentId);
    const refused = this.refusal(agent, runtime);
    if (refused) {
      this.setStatus(agentId, runtime, {
        state: 'error',
        agentName: agent.label,
        error: { kind: refused.kind, message: refused.message },
      });
      throw refused;
    }
    // Made before the first await: a stop right after `client()` finds it.
    const abort = (runtime.startAbort = new AbortController());
    const { signal } = abort;
    this.setStatus(agentId, runtime, { state: 'starting', agentName: agent.label });
    await this.backOff(agent, runtime, signal);
    try {
      signal.throwIfAborted();
      await this.ensureAllowed(agent);
      signal.throwIfAborted();
      const client = await this.launch(agent, runtime, signal);
      if (signal.aborted) {
        await client.stop();
        throw new StoppedWhileStartingError(agent.label);
      }
      this.adopt(agentId, runtime, client);
      return client;
    } catch (error) {
      // A stop during the start is what was asked for: the agent is idle, not failed.
      if (signal.aborted) {
        this.setStatus(agentId, runtime, { state: 'idle' });
        throw new StoppedWhileStartingError(agent.label);
      }
      this.setStatus(agentId, runtime, this.errorStatus(agentId, error, undefined));
      throw classifyError(error);
    } finally {
      if (runtime.startAbort === abort) {
        runtime.startAbort = undefined;
      }
    }
  }

  /** Why the agent may not start now: an untrusted workspace, or crashes in a row. */
  private refusal(agent: AgentDefinition, runtime: Runtime): AgentError | undefined {
    if (this.host.trusted && !this.host.trusted()) {
      return new AgentError(
        'untrusted',
        'This workspace is not trusted, so no agent is started: an agent can read, write and run anything here. Trust the workspace to chat.',
      );
    }
    const now = Date.now();
    runtime.crashes = runtime.crashes.filter((at) => now - at < CRASH_WINDOW_MS);
    if (runtime.crashes.length >= MAX_CRASHES) {
      return new AgentError(
        'process_exited',
        `${agent.label} crashed ${runtime.crashes.length} times in a minute; it is not restarted automatically. Check the agent log, then press Restart.`,
      );
    }
    return undefined;
  }

  /** After a crash, waits longer the more crashes there were (a stop ends the wait). */
  private async backOff(agent: AgentDefinition, runtime: Runtime, signal: AbortSignal): Promise<void> {
    if (runtime.crashes.length === 0) {
      return;
    }
    const delay = Math.min(30_000, 1000 * 2 ** (runtime.crashes.length - 1));
    this.host.ports.logger.warn(`${agent.label} crashed recently; restarting in ${delay / 1000} s.`);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delay);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }

  /** Starts the agent's process and its connection (with its sign-in secrets in its environment). */
  private async launch(agent: AgentDefinition, runtime: Runtime, signal: AbortSignal): Promise<AgentClient> {
    const env = { ...agent.env, ...(await this.host.signIn?.secretsFor(agent.id)) };
    signal.throwIfAborted();
    const lines = new StderrLines((line) => this.noteSaid(agent.id, runtime, line));
    const starting = this.host.startClient({
      agentId: agent.id,
      label: agent.label,
      command: { command: agent.command, args: agent.args, env, cwd: this.host.cwd() },
      ports: withWriteNotes(this.host.ports, this.host.writeNotes),
      ...this.host.clientOptions,
      terminalAuth: this.host.signIn !== undefined,
      signal,
      onStderr: (text) => lines.push(text),
    });
    return this.host.progress ? this.host.progress(`Starting ${agent.label}…`, starting) : starting;
  }

  /**
   * An agent the workspace's own settings define runs only once the user allowed its command line
   * (asked once per definition): trusting a folder is not consenting to each program it names.
   */
  private async ensureAllowed(agent: AgentDefinition): Promise<void> {
    const origin = agent.origin;
    if (!origin || !this.host.allowProgram || (await this.host.allowProgram(agent, origin))) {
      return;
    }
    throw new AgentError(
      'not_allowed',
      `${agent.label} is not started: ${origin.source} define it, and you did not allow it to run. ` +
        'ACP: Reset Consent to Workspace Programs asks again.',
    );
  }

  /** Keeps the started client; its end (an exit, a lost connection) counts as a crash unless asked for. */
  private adopt(agentId: string, runtime: Runtime, client: AgentClient): void {
    runtime.client = client;
    // Ended: the process exited, or the connection was lost (then at once, not after the stop's grace).
    client.onEnded((reason) => {
      if (runtime.client !== client) {
        return; // stopped on purpose
      }
      runtime.client = undefined;
      runtime.crashes.push(Date.now());
      this.setStatus(agentId, runtime, this.errorStatus(agentId, reason, client));
    });
    this.setStatus(agentId, runtime, readyStatus(client, this.label(agentId, client)));
  }

  /** A fatal-looking stderr line while something waits on the agent: on its status at once. */
  private noteSaid(agentId: string, runtime: Runtime, line: string): void {
    const waiting = runtime.waiting > 0 || runtime.status.state === 'starting';
    if (waiting && looksFatal(line) && runtime.status.state !== 'error') {
      this.setStatus(agentId, runtime, { ...runtime.status, said: line });
    }
  }

  private errorStatus(agentId: string, error: unknown, client: AgentClient | undefined): AgentStatus {
    return failedStatus(this.definition(agentId), error, client, this.label(agentId, client));
  }

  /**
   * The agent's name as the user knows it — the picker's label, the name given on Add Agent — for the
   * status bar, the composer's placeholder and the banners; not what the program calls itself in
   * `initialize` (a custom agent built on another one would otherwise go by that one's name).
   */
  private label(agentId: string, client: AgentClient | undefined): string {
    return this.host.agents().agents.find((a) => a.id === agentId)?.label ?? client?.info.name ?? agentId;
  }

  definition(agentId: string): AgentDefinition {
    const agent = this.host.agents().agents.find((a) => a.id === agentId);
    if (!agent) {
      throw new AgentError('not_found', `No agent "${agentId}" is configured.`);
    }
    return agent;
  }

  private runtime(agentId: string): Runtime {
    let runtime = this.runtimes.get(agentId);
    if (!runtime) {
      runtime = { status: { state: 'idle' }, crashes: [], busy: false, waiting: 0 };
      this.runtimes.set(agentId, runtime);
    }
    return runtime;
  }

  private setStatus(agentId: string, runtime: Runtime, status: AgentStatus): void {
    runtime.status = status;
    this.statusEmitter.fire({ agentId, status });
  }

  /** The agents that have (or had) a process in this pool. */
  agentIds(): string[] {
    return [...this.runtimes.keys()];
  }

  /** Stops every agent (extension deactivation). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.runtimes.keys()].map((agentId) => this.stop(agentId)));
  }

  dispose(): void {
    void this.stopAll();
    this.statusEmitter.dispose();
  }
}
