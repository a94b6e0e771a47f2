import type { ChildProcess } from 'node:child_process';
import { Readable } from 'node:stream';
import { hostPlatform, ownProcessGroup, type Platform } from '../platform/platform';
import { endProcessTree } from '../platform/processTree';
import { BoundedLog } from '../util/boundedLog';
import { isBrandedInstance } from '../util/bundleBrand';
import { Emitter, type Disposable } from '../util/disposable';
import { spawnProgram } from './spawnProgram';

/** What to run: a program and its arguments, never a shell string. */
export interface AgentCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** Added to (and overriding) the extension host's environment. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd: string;
}

/** How the process ended. `error` is set when it could not be started at all (e.g. ENOENT). */
export interface ExitInfo {
  readonly code: number | null;
  readonly signal: string | null;
  readonly error?: string;
}

export interface AgentProcessOptions {
  /** Characters of stderr kept for error reports. */
  readonly stderrLimit?: number;
  /** Time between SIGTERM and SIGKILL when stopping (on Windows: for an exit on its own, then taskkill's). */
  readonly stopGraceMs?: number;
  /** Whose rules end the process tree (the host's; a test poses as Windows). */
  readonly platform?: Platform;
}

/** Error for a write to an agent whose process is gone. */
export class AgentNotRunningError extends Error {
  /** Made in the connection's bundle, classified in the chat's: `instanceof` by brand (./bundleBrand). */
  static readonly brand: string = 'acp-agents:AgentNotRunningError';
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBrandedInstance(this, value);
  }

  constructor(readonly exit: ExitInfo | undefined) {
    super(`The agent process is not running${exit ? ` (${describeExit(exit)})` : ''}.`);
    this.name = 'AgentNotRunningError';
  }
}

export function describeExit(exit: ExitInfo): string {
  if (exit.error) {
    return `failed to start: ${exit.error}`;
  }
  if (exit.signal) {
    return `was killed by ${exit.signal}`;
  }
  return `exited with code ${exit.code ?? 'unknown'}`;
}

/**
 * An agent child process speaking over stdio. Owns the process: exposes stdin/stdout as web
 * streams for the ACP SDK, keeps a bounded stderr tail, reports the exit, and stops the whole
 * process group (agents are often `npx` wrappers with a child of their own).
 */
export class AgentProcess implements Disposable {
  readonly stdin: WritableStream<Uint8Array>;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: BoundedLog;
  readonly exited: Promise<ExitInfo>;
  readonly pid: number | undefined;

  private readonly stderrEmitter = new Emitter<string>();
  /** Each piece of stderr text as it arrives (the whole stream, not only the kept tail). */
  readonly onStderr = this.stderrEmitter.event;

  private readonly child: ChildProcess;
  private exit: ExitInfo | undefined;
  private readonly stopGraceMs: number;
  private readonly platform: Platform;
  private stopping: Promise<void> | undefined;

  constructor(
    readonly spec: AgentCommand,
    options: AgentProcessOptions = {},
  ) {
    this.stderr = new BoundedLog(options.stderrLimit ?? 64 * 1024);
    this.stopGraceMs = options.stopGraceMs ?? 2000;
    this.platform = options.platform ?? hostPlatform();
    const env = { ...process.env, ...spec.env };
    this.child = spawnProgram(spec.command, spec.args, {
      cwd: spec.cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      // So stop() reaches grandchildren too (an npx wrapper's agent, a .cmd shim's node).
      ...ownProcessGroup(this.platform),
    });
    this.pid = this.child.pid;

    this.exited = new Promise<ExitInfo>((resolve) => {
      this.child.once('error', (error: NodeJS.ErrnoException) => {
        // A failed start never emits 'exit': Node's own (no pid), or cross-spawn's on Windows, whose
        // cmd.exe did start but found no such command (its 'exit' is turned into this 'error').
        if (this.child.pid === undefined || error.syscall?.startsWith('spawn')) {
          this.exit ??= { code: null, signal: null, error: `${error.code ?? ''} ${error.message}`.trim() };
          resolve(this.exit);
        }
      });
      this.child.once('exit', (code, signal) => {
        const exit = (this.exit ??= { code, signal });
        // stderr can still hold the agent's last words: let it drain (briefly) before reporting.
        const stderr = this.child.stderr;
        if (!stderr || stderr.closed) {
          resolve(exit);
          return;
        }
        const timer = setTimeout(() => resolve(exit), 500);
        stderr.once('close', () => {
          clearTimeout(timer);
          resolve(exit);
        });
      });
    });

    // A dead agent closes its stdin pipe; writes then fail with EPIPE asynchronously. Swallow it
    // here: the failure is reported by the rejected write promise and by `exited`.
    this.child.stdin?.on('error', () => {});
    this.child.stdout?.on('error', () => {});
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (text: string) => {
      this.stderr.append(text);
      this.stderrEmitter.fire(text);
    });

    this.stdout = this.child.stdout
      ? (Readable.toWeb(this.child.stdout) as ReadableStream<Uint8Array>)
      : new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
    this.stdin = new WritableStream<Uint8Array>({
      write: (chunk) => this.write(chunk),
      close: () => {
        this.child.stdin?.end();
      },
    });
  }

  /** The exit, once the process has ended. */
  get exitInfo(): ExitInfo | undefined {
    return this.exit;
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  private write(chunk: Uint8Array): Promise<void> {
    const stdin = this.child.stdin;
    if (this.exit || !stdin || stdin.destroyed || !stdin.writable) {
      return Promise.reject(new AgentNotRunningError(this.exit));
    }
    return new Promise<void>((resolve, reject) => {
      stdin.write(chunk, (error) => (error ? reject(new AgentNotRunningError(this.exit)) : resolve()));
    });
  }

  /**
   * Ends stdin, then the whole process tree (`endProcessTree`): SIGTERM to its group, SIGKILL after
   * the grace; on Windows the grace to exit on its own, then `taskkill /T /F`. Resolves when it has exited.
   */
  async stop(): Promise<ExitInfo> {
    if (this.exit) {
      return this.exit;
    }
    this.child.stdin?.end();
    this.stopping ??= endProcessTree(
      this.child,
      this.exited,
      { graceMs: this.stopGraceMs, windowsWaitMs: this.stopGraceMs },
      this.platform,
    );
    await this.stopping;
    return this.exited;
  }

  dispose(): void {
    void this.stop();
    this.stderrEmitter.dispose();
  }
}
