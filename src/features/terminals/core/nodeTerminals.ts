import { spawn, type ChildProcess } from 'node:child_process';
import { Emitter } from '../../../core/disposable';
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

interface RunningTerminal {
  readonly child: ChildProcess;
  readonly output: OutputBuffer;
  readonly exited: Promise<TerminalExit>;
  exit?: TerminalExit;
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

  constructor(private readonly defaultCwd: string = process.cwd()) {}

  async create(request: TerminalCreateRequest): Promise<string> {
    const useShell = !request.args || request.args.length === 0;
    const child = spawn(request.command, useShell ? [] : [...request.args!], {
      cwd: request.cwd ?? this.defaultCwd,
      env: { ...process.env, ...request.env },
      shell: useShell,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      detached: process.platform !== 'win32',
    });
    const id = `term-${this.nextId++}`;
    const output = new OutputBuffer(request.outputByteLimit ?? DEFAULT_OUTPUT_LIMIT);
    const append = (chunk: Buffer): void => {
      output.append(chunk);
      this.writeEmitter.fire({ terminalId: id, data: chunk });
      this.changeEmitter.fire(id);
    };
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);
    const terminal: RunningTerminal = {
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

  async output(terminalId: string): Promise<TerminalOutput> {
    const terminal = this.get(terminalId);
    return {
      output: terminal.output.text(),
      truncated: terminal.output.truncated,
      ...(terminal.exit ? { exitStatus: terminal.exit } : {}),
    };
  }

  async waitForExit(terminalId: string): Promise<TerminalExit> {
    return this.get(terminalId).exited;
  }

  async kill(terminalId: string): Promise<void> {
    const terminal = this.get(terminalId);
    if (terminal.exit || terminal.child.pid === undefined) {
      return;
    }
    try {
      if (process.platform !== 'win32') {
        process.kill(-terminal.child.pid, 'SIGTERM');
      } else {
        terminal.child.kill();
      }
    } catch {
      // Already exited.
    }
  }

  async release(terminalId: string): Promise<void> {
    await this.kill(terminalId);
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
        this.released.delete(this.released.keys().next().value as string);
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

  private get(terminalId: string): RunningTerminal {
    const terminal = this.terminals.get(terminalId);
    if (!terminal) {
      throw new ClientRefusalError(`Unknown or released terminal ${terminalId}`, 'not_available');
    }
    return terminal;
  }
}
