import { spawn, type ChildProcess } from 'node:child_process';
import { ownProcessGroup } from '../../../core/platform/platform';
import { endProcessTree } from '../../../core/platform/processTree';
import { Emitter } from '../../../core/util/disposable';
import { OutputBuffer } from './outputBuffer';
import {
  ClientRefusalError,
  type TerminalCreateRequest,
  type TerminalDelta,
  type TerminalExit,
  type TerminalOutput,
  type TerminalPort,
} from '../../../core/ports';

const DEFAULT_OUTPUT_LIMIT = 1024 * 1024;
/** Released terminals whose final output stays readable for the view. */
const KEPT_RELEASED = 20;

/** Bounds on what agents' terminals may hold in one window (see README, "Terminals"). */
export interface TerminalBounds {
  /** Cap on an agent's `outputByteLimit` per terminal. */
  readonly maxOutputBytes: number;
  /** Output held across all terminals of the window; past it the oldest terminals' output goes first. */
  readonly totalOutputBytes: number;
  /** Terminals one session may have running at once. */
  readonly maxLivePerSession: number;
  /** After SIGTERM, how long a command has before its process group gets SIGKILL. */
  readonly killGraceMs: number;
}

export const DEFAULT_TERMINAL_BOUNDS: TerminalBounds = {
  maxOutputBytes: 4 * 1024 * 1024,
  totalOutputBytes: 64 * 1024 * 1024,
  maxLivePerSession: 16,
  killGraceMs: 2_000,
};

interface RunningTerminal {
  readonly sessionId: string;
  readonly child: ChildProcess;
  readonly output: OutputBuffer;
  readonly exited: Promise<TerminalExit>;
  exit?: TerminalExit;
  /** Set once it is being killed: every caller waits on the same kill. */
  killing?: Promise<void>;
}

/**
 * The terminal port with `child_process`: stdout and stderr interleaved into one bounded buffer,
 * as a terminal shows them. A command without args is one shell command line.
 */
export class NodeTerminals implements TerminalPort {
  private readonly terminals = new Map<string, RunningTerminal>();
  private nextId = 1;
  /** Released terminals: their output and exit, kept for the view (not for the agent). */
  private readonly released = new Map<
    string,
    { readonly output: OutputBuffer; readonly exit?: TerminalExit }
  >();
  private readonly changeEmitter = new Emitter<string>();
  readonly onDidChange = this.changeEmitter.event;
  private readonly writeEmitter = new Emitter<{ readonly terminalId: string; readonly data: Buffer }>();
  /** Every piece of output as it arrives (to mirror it into a terminal a person can watch). */
  readonly onDidWrite = this.writeEmitter.event;

  private readonly bounds: TerminalBounds;
  /** Bytes held by every terminal's output (running and released). */
  private heldBytes = 0;

  constructor(
    private readonly defaultCwd: string = process.cwd(),
    bounds: Partial<TerminalBounds> = {},
  ) {
    this.bounds = { ...DEFAULT_TERMINAL_BOUNDS, ...bounds };
  }

  async create(request: TerminalCreateRequest): Promise<string> {
    const live = [...this.terminals.values()].filter(
      (t) => t.sessionId === request.sessionId && !t.exit,
    ).length;
    if (live >= this.bounds.maxLivePerSession) {
      throw new ClientRefusalError(
        `At most ${this.bounds.maxLivePerSession} terminals may run at once in a session; release one first.`,
        'not_available',
      );
    }
    const useShell = !request.args || request.args.length === 0;
    const child = spawn(request.command, useShell ? [] : [...request.args!], {
      cwd: request.cwd ?? this.defaultCwd,
      env: { ...process.env, ...request.env },
      shell: useShell,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      ...ownProcessGroup(),
    });
    const id = `term-${this.nextId++}`;
    const asked = request.outputByteLimit ?? DEFAULT_OUTPUT_LIMIT;
    const output = new OutputBuffer(Math.max(1, Math.min(Math.floor(asked), this.bounds.maxOutputBytes)));
    const append = (chunk: Buffer): void => {
      const before = output.heldBytes;
      output.append(chunk);
      this.heldBytes += output.heldBytes - before;
      this.keepWithinBudget(output);
      this.writeEmitter.fire({ terminalId: id, data: chunk });
      this.changeEmitter.fire(id);
    };
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);
    const terminal: RunningTerminal = {
      sessionId: request.sessionId,
      child,
      output,
      exited: new Promise<TerminalExit>((resolve) => {
        child.once('error', (error) => {
          output.append(Buffer.from(`${error.message}\n`));
          resolve((terminal.exit ??= { exitCode: 127, signal: null }));
        });
        // 'close' (not 'exit'): all output has been read by then.
        child.once('close', (code, signal) => resolve((terminal.exit ??= { exitCode: code, signal })));
      }),
    };
    this.terminals.set(id, terminal);
    void terminal.exited.then(() => this.changeEmitter.fire(id));
    return id;
  }

  async output(terminalId: string, sessionId?: string): Promise<TerminalOutput> {
    const terminal = this.get(terminalId, sessionId);
    return {
      output: terminal.output.text(),
      truncated: terminal.output.truncated,
      ...(terminal.exit ? { exitStatus: terminal.exit } : {}),
    };
  }

  async waitForExit(terminalId: string, sessionId?: string): Promise<TerminalExit> {
    return this.get(terminalId, sessionId).exited;
  }

  /** Ends the command and its process tree (SIGTERM, then SIGKILL after the grace). */
  async kill(terminalId: string, sessionId?: string): Promise<void> {
    const terminal = this.get(terminalId, sessionId);
    terminal.killing ??= endProcessTree(terminal.child, terminal.exited, {
      graceMs: this.bounds.killGraceMs,
    });
    await terminal.killing;
  }

  /** Releases every terminal of a session (it ended, or its agent stopped or crashed). */
  async releaseSession(sessionId: string): Promise<void> {
    await Promise.all(this.idsOf(sessionId).map((id) => this.release(id, sessionId)));
  }

  /** The terminals a session holds. */
  idsOf(sessionId: string): string[] {
    return [...this.terminals].filter(([, t]) => t.sessionId === sessionId).map(([id]) => id);
  }

  async release(terminalId: string, sessionId?: string): Promise<void> {
    await this.kill(terminalId, sessionId);
    const terminal = this.terminals.get(terminalId);
    this.terminals.delete(terminalId);
    if (terminal) {
      // Holds on to the exit as it becomes known (release kills, and the exit follows).
      const kept = {
        output: terminal.output,
        get exit() {
          return terminal.exit;
        },
      };
      this.released.set(terminalId, kept);
      while (this.released.size > KEPT_RELEASED) {
        const oldest = this.released.keys().next().value as string;
        this.heldBytes -= this.released.get(oldest)?.output.heldBytes ?? 0;
        this.released.delete(oldest);
      }
    }
  }

  lastOutput(terminalId: string): TerminalOutput | undefined {
    const terminal = this.terminals.get(terminalId) ?? this.released.get(terminalId);
    return terminal ? this.snapshot(terminal) : undefined;
  }

  outputFrom(terminalId: string, offset: number): TerminalDelta | undefined {
    const terminal = this.terminals.get(terminalId) ?? this.released.get(terminalId);
    if (!terminal) {
      return undefined;
    }
    const delta = offset >= 0 ? terminal.output.since(offset) : undefined;
    const { bytes, end } = delta ?? terminal.output.held();
    return {
      text: bytes.toString('utf8'),
      append: delta !== undefined,
      next: end,
      truncated: terminal.output.truncated,
      ...(terminal.exit ? { exitStatus: terminal.exit } : {}),
    };
  }

  private snapshot(terminal: {
    readonly output: OutputBuffer;
    readonly exit?: TerminalExit;
  }): TerminalOutput {
    return {
      output: terminal.output.text(),
      truncated: terminal.output.truncated,
      ...(terminal.exit ? { exitStatus: terminal.exit } : {}),
    };
  }

  /** Kills every terminal still running. */
  async dispose(): Promise<void> {
    await Promise.all([...this.terminals.keys()].map((id) => this.release(id)));
  }

  /**
   * Past the window's output budget, the oldest terminals' output goes first (released ones before
   * running ones); `keep` is the terminal being written, dropped last.
   */
  private keepWithinBudget(keep: OutputBuffer): void {
    if (this.heldBytes <= this.bounds.totalOutputBytes) {
      return;
    }
    const oldestFirst = [...this.released.values(), ...this.terminals.values()].map((t) => t.output);
    for (const output of oldestFirst) {
      if (this.heldBytes <= this.bounds.totalOutputBytes) {
        return;
      }
      if (output !== keep) {
        this.heldBytes -= output.heldBytes;
        output.dropAll();
      }
    }
  }

  /** A terminal of `sessionId` (when given): another session's terminal is as unknown as a missing one. */
  private get(terminalId: string, sessionId?: string): RunningTerminal {
    const terminal = this.terminals.get(terminalId);
    if (!terminal || (sessionId !== undefined && terminal.sessionId !== sessionId)) {
      throw new ClientRefusalError(`Unknown or released terminal ${terminalId}`, 'not_available');
    }
    return terminal;
  }
}
