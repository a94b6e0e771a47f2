import * as vscode from 'vscode';
import { NodeTerminals } from '../core/nodeTerminals';
import type {
  TerminalCreateRequest,
  TerminalDelta,
  TerminalExit,
  TerminalOutput,
  TerminalPort,
} from '../../../core/ports';

/** How many finished agent terminals stay open for reading before the oldest is closed. */
const KEPT_TERMINALS = 5;
/** Running agent terminals mirrored into VS Code terminals at once; the others open on demand (`terminalFor`). */
const OPEN_AT_ONCE = 4;
/** Output held for a terminal VS Code has not opened yet. */
const BACKLOG_CHARS = 1024 * 1024;

/**
 * The agent's `terminal/*` requests: the command runs as a child process (output bounded as the
 * agent asked) and its output is mirrored live into a VS Code terminal (a Pseudoterminal) that the
 * user can watch; the terminal stays readable after the agent releases it.
 */
export class VsCodeTerminals implements TerminalPort, vscode.Disposable {
  private readonly processes: NodeTerminals;
  private readonly views = new Map<string, TerminalView>();
  private readonly finished: TerminalView[] = [];
  private readonly subscription: vscode.Disposable;
  readonly onDidChange: NodeTerminals['onDidChange'];

  constructor(cwd: () => string) {
    this.processes = new NodeTerminals(cwd());
    this.onDidChange = this.processes.onDidChange;
    const decoder = new TextDecoder();
    this.subscription = this.processes.onDidWrite(({ terminalId, data }) => {
      // A terminal wants CRLF; commands print LF.
      this.views.get(terminalId)?.show(decoder.decode(data, { stream: true }).replace(/\r?\n/g, '\r\n'));
    });
  }

  private readonly commandLines = new Map<string, string>();

  async create(request: TerminalCreateRequest): Promise<string> {
    const terminalId = await this.processes.create(request);
    this.commandLines.set(terminalId, [request.command, ...(request.args ?? [])].join(' '));
    // A storm of terminals must not open a VS Code terminal each: the first few, the rest on demand.
    if (this.views.size < OPEN_AT_ONCE) {
      this.openView(terminalId);
    }
    return terminalId;
  }

  private openView(terminalId: string): TerminalView {
    const commandLine = this.commandLines.get(terminalId) ?? terminalId;
    const view = new TerminalView(`Agent: ${truncate(commandLine, 40)}`, () => {
      void this.processes.kill(terminalId).catch(() => {});
    });
    view.show(`\x1b[2m$ ${commandLine}\x1b[0m\r\n`);
    // Opened on demand: what was printed so far (bounded by the terminal's limit) comes first.
    const held = this.processes.lastOutput(terminalId)?.output;
    if (held) {
      view.show(held.replace(/\r?\n/g, '\r\n'));
    }
    this.views.set(terminalId, view);
    void this.processes.waitForExit(terminalId).then((exit) => {
      const status = exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.exitCode}`;
      view.show(`\r\n\x1b[2m[${status}]\x1b[0m\r\n`);
    });
    return view;
  }

  lastOutput(terminalId: string): TerminalOutput | undefined {
    return this.processes.lastOutput(terminalId);
  }

  outputFrom(terminalId: string, offset: number): TerminalDelta | undefined {
    return this.processes.outputFrom(terminalId, offset);
  }

  output(terminalId: string, sessionId?: string): Promise<TerminalOutput> {
    return this.processes.output(terminalId, sessionId);
  }

  waitForExit(terminalId: string, sessionId?: string): Promise<TerminalExit> {
    return this.processes.waitForExit(terminalId, sessionId);
  }

  kill(terminalId: string, sessionId?: string): Promise<void> {
    return this.processes.kill(terminalId, sessionId);
  }

  async releaseSession(sessionId: string): Promise<void> {
    const owned = this.processes.idsOf(sessionId);
    await Promise.all(owned.map((id) => this.release(id, sessionId)));
  }

  async release(terminalId: string, sessionId?: string): Promise<void> {
    await this.processes.release(terminalId, sessionId);
    this.commandLines.delete(terminalId);
    const view = this.views.get(terminalId);
    this.views.delete(terminalId);
    if (view) {
      this.finished.push(view);
      while (this.finished.length > KEPT_TERMINALS) {
        this.finished.shift()?.dispose();
      }
    }
  }

  /** The VS Code terminal showing an agent terminal while the agent holds it, opened now if it was not. */
  terminalFor(terminalId: string): vscode.Terminal | undefined {
    const view =
      this.views.get(terminalId) ??
      (this.commandLines.has(terminalId) ? this.openView(terminalId) : undefined);
    return view?.terminal;
  }

  dispose(): void {
    this.subscription.dispose();
    void this.processes.dispose();
    for (const view of [...this.views.values(), ...this.finished]) {
      view.dispose();
    }
  }
}

/** One Pseudoterminal. VS Code drops writes made before `open`, so they wait in a bounded backlog. */
class TerminalView {
  readonly terminal: vscode.Terminal;
  private readonly writer = new vscode.EventEmitter<string>();
  private backlog: string[] | undefined = [];
  private backlogChars = 0;

  constructor(name: string, onClose: () => void) {
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.writer.event,
      open: () => {
        const waiting = this.backlog ?? [];
        this.backlog = undefined;
        for (const text of waiting) {
          this.writer.fire(text);
        }
      },
      close: onClose,
    };
    this.terminal = vscode.window.createTerminal({ name, pty, isTransient: true });
  }

  show(text: string): void {
    if (!this.backlog) {
      this.writer.fire(text);
      return;
    }
    this.backlog.push(text);
    this.backlogChars += text.length;
    while (this.backlogChars > BACKLOG_CHARS && this.backlog.length > 1) {
      this.backlogChars -= this.backlog.shift()?.length ?? 0;
    }
  }

  dispose(): void {
    this.writer.dispose();
    this.terminal.dispose();
  }
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
