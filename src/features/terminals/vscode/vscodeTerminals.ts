import * as vscode from 'vscode';
import { NodeTerminals } from '../core/nodeTerminals';
import { TerminalWindows, type TerminalWindow } from '../chat/terminalWindows';
import type {
  TerminalCreateRequest,
  TerminalDelta,
  TerminalExit,
  TerminalOutput,
  TerminalPort,
} from '../../../core/ports';

/** Output held for a terminal VS Code has not opened yet. */
const BACKLOG_CHARS = 1024 * 1024;

/**
 * The agent's `terminal/*` requests: the command runs as a child process (output bounded as the
 * agent asked) and its output is mirrored live into a VS Code terminal (a Pseudoterminal) that the
 * user can watch — the first few as they start, the others when the user opens them from the chat —
 * and that stays readable after the agent releases it.
 */
export class VsCodeTerminals implements TerminalPort, vscode.Disposable {
  private readonly processes: NodeTerminals;
  private readonly windows: TerminalWindows<PseudoterminalWindow>;
  readonly onDidChange: NodeTerminals['onDidChange'];

  /** `cwd`: the folder a session's command runs in when the agent names none (its chat's folder). */
  constructor(private readonly cwd: (sessionId: string) => string) {
    this.processes = new NodeTerminals();
    this.onDidChange = this.processes.onDidChange;
    this.windows = new TerminalWindows(
      {
        onDidWrite: this.processes.onDidWrite,
        lastOutput: (id) => this.processes.lastOutput(id),
        waitForExit: (id) => this.processes.waitForExit(id),
        kill: (id) => this.processes.kill(id),
      },
      (name, onUserClose) => new PseudoterminalWindow(name, onUserClose),
    );
  }

  async create(request: TerminalCreateRequest): Promise<string> {
    const terminalId = await this.processes.create({
      ...request,
      cwd: request.cwd ?? this.cwd(request.sessionId),
    });
    this.windows.created(terminalId, request.sessionId, [request.command, ...(request.args ?? [])].join(' '));
    return terminalId;
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
    this.windows.released(terminalId);
  }

  /** The VS Code terminal showing an agent terminal, opened now if the agent holds it and it had none. */
  terminalFor(terminalId: string): vscode.Terminal | undefined {
    return this.windows.windowFor(terminalId)?.terminal;
  }

  /** The chat's "Open in terminal": shows session `sessionId`'s terminal; false when it has no such terminal. */
  show(terminalId: string, sessionId: string): boolean {
    return this.windows.show(terminalId, sessionId);
  }

  dispose(): void {
    this.windows.dispose();
    void this.processes.dispose();
  }
}

/** One Pseudoterminal. VS Code drops writes made before `open`, so they wait in a bounded backlog. */
class PseudoterminalWindow implements TerminalWindow {
  readonly terminal: vscode.Terminal;
  private readonly writer = new vscode.EventEmitter<string>();
  private backlog: string[] | undefined = [];
  private backlogChars = 0;
  private closing = false;

  constructor(name: string, onUserClose: () => void) {
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.writer.event,
      open: () => {
        const waiting = this.backlog ?? [];
        this.backlog = undefined;
        for (const text of waiting) {
          this.writer.fire(text);
        }
      },
      // Closed by us (a bound, a release): the command is left alone.
      close: () => {
        if (!this.closing) {
          onUserClose();
        }
      },
    };
    this.terminal = vscode.window.createTerminal({ name, pty, isTransient: true });
  }

  write(text: string): void {
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

  reveal(): void {
    this.terminal.show(false);
  }

  close(): void {
    this.closing = true;
    this.writer.dispose();
    this.terminal.dispose();
  }
}
