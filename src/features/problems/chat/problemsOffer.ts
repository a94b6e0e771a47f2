import type { Disposable } from '../../../core/util/disposable';
import type { ProblemsOfferMessage } from '../../../protocol';
import type { PromptBlock } from '../../../core/session/promptBlocks';
import type { Thread } from '../../../core/thread/thread';
import type { ThreadEvent } from '../../../core/thread/threadTypes';

/** One error or warning the editor shows for a file (VS Code's Problems). */
export interface Problem {
  /** Absolute path. */
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  /** Who reported it (`ts`, `eslint`…), when known. */
  readonly source?: string;
  readonly code?: string;
}

/** The editor's diagnostics, as the chat needs them. */
export interface DiagnosticsPort {
  /** The current errors and warnings: of `paths` (absolute), or of every file when absent. */
  problems(paths?: readonly string[]): Problem[];
  /** Fires with the (absolute) paths whose diagnostics changed. */
  onDidChange(listener: (paths: readonly string[]) => void): Disposable;
  /** Makes sure the language services look at these files (opens them as documents, without showing them). */
  check(paths: readonly string[]): Promise<void>;
  /** For messages: the path relative to its workspace folder. */
  relativePath(path: string): string;
}

/** New problems in the files a turn changed, offered to the user as "Fix N new problems". */
export interface ProblemsOffer {
  readonly chatId: string;
  readonly turnId: string;
  readonly problems: readonly Problem[];
}

export interface ProblemsWatchOptions {
  /**
   * Diagnostics count as settled this long after the last change to a changed file's diagnostics.
   * Until the first such change, the language services may still be starting: the wait is `maxWaitMs`.
   */
  readonly quietMs: number;
  /** The longest wait after the turn ended (language servers that keep reporting, or never report). */
  readonly maxWaitMs: number;
}

const DEFAULTS: ProblemsWatchOptions = { quietMs: 1500, maxWaitMs: 10_000 };

/** Tool kinds whose paths are files the agent changed. */
const CHANGING_KINDS = new Set(['edit', 'delete', 'move']);

/** How many problems a prompt lists before "and N more". */
const LISTED_PROBLEMS = 50;

/**
 * Watches each chat's turns: remembers the problems before a turn starts and, after a turn that
 * changed files, waits for the diagnostics to settle and offers the errors and warnings that are new
 * in those files. The offer goes away when the next turn starts or it is taken up.
 */
export class ProblemsWatch implements Disposable {
  private readonly options: ProblemsWatchOptions;
  private readonly before = new Map<string, Map<string, number>>();
  private readonly offers = new Map<string, ProblemsOffer>();
  private readonly settling = new Map<string, Disposable>();

  constructor(
    private readonly diagnostics: DiagnosticsPort,
    /** Called when a chat's offer appears or goes away (`undefined`). */
    private readonly onOffer: (chatId: string, offer: ProblemsOffer | undefined) => void,
    options: Partial<ProblemsWatchOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Follows one event of a chat's thread. */
  observe(chatId: string, thread: Thread, event: ThreadEvent): void {
    if (event.type === 'turn_started') {
      this.settling.get(chatId)?.dispose();
      this.before.set(chatId, counts(this.diagnostics.problems()));
      if (this.offers.delete(chatId)) {
        this.onOffer(chatId, undefined);
      }
    } else if (event.type === 'turn_ended') {
      this.settle(chatId, thread, event.turn.id);
    }
  }

  /** The chat's current offer, if any. */
  offer(chatId: string): ProblemsOffer | undefined {
    return this.offers.get(chatId);
  }

  /** Takes the chat's offer for `turnId` (it is gone afterwards); throws when there is none. */
  take(chatId: string, turnId: string): ProblemsOffer {
    const offer = this.offers.get(chatId);
    if (!offer || offer.turnId !== turnId) {
      throw new Error('Those problems are no longer offered.');
    }
    this.offers.delete(chatId);
    this.onOffer(chatId, undefined);
    return offer;
  }

  /** Drops the chat's offer (the user dismissed it). */
  dismiss(chatId: string): void {
    if (this.offers.delete(chatId)) {
      this.onOffer(chatId, undefined);
    }
  }

  /** Waits until the diagnostics have been quiet for a moment (bounded), then compares. */
  private settle(chatId: string, thread: Thread, turnId: string): void {
    const before = this.before.get(chatId);
    this.before.delete(chatId);
    if (!before) {
      return; // the turn started before we watched (e.g. a reload): nothing to compare with
    }
    const startedAt = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (): void => {
      handle.dispose();
      this.compare(chatId, thread, turnId, before);
    };
    const wait = (ms: number): void => {
      clearTimeout(timer);
      const left = this.options.maxWaitMs - (Date.now() - startedAt);
      timer = setTimeout(finish, Math.max(0, Math.min(ms, left)));
    };
    const changes = this.diagnostics.onDidChange((paths) => {
      // Only the changed files' diagnostics matter; their list can still grow just after the turn.
      const changed = new Set(changedPaths(thread, turnId));
      if (paths.some((path) => changed.has(path))) {
        wait(this.options.quietMs);
      }
    });
    const handle: Disposable = {
      dispose: () => {
        clearTimeout(timer);
        changes.dispose();
        if (this.settling.get(chatId) === handle) {
          this.settling.delete(chatId);
        }
      },
    };
    this.settling.set(chatId, handle);
    wait(this.options.maxWaitMs);
    // Files nobody has open have no diagnostics: ask the language services to look at them.
    const paths = changedPaths(thread, turnId);
    if (paths.length > 0) {
      void this.diagnostics.check(paths).catch(() => {});
    }
  }

  private compare(chatId: string, thread: Thread, turnId: string, before: Map<string, number>): void {
    // Read again now: the final change list of a turn is recorded a moment after it ends.
    const paths = changedPaths(thread, turnId);
    if (paths.length === 0) {
      return;
    }
    const left = new Map(before);
    const fresh = this.diagnostics.problems(paths).filter((problem) => {
      const key = keyOf(problem);
      const seen = left.get(key) ?? 0;
      if (seen > 0) {
        left.set(key, seen - 1);
        return false;
      }
      return true;
    });
    if (fresh.length === 0) {
      return;
    }
    const offer: ProblemsOffer = { chatId, turnId, problems: sortProblems(fresh) };
    this.offers.set(chatId, offer);
    this.onOffer(chatId, offer);
  }

  dispose(): void {
    for (const handle of [...this.settling.values()]) {
      handle.dispose();
    }
    this.before.clear();
    this.offers.clear();
  }
}

/** The offer as the view shows it: paths relative to the workspace. */
export function offerMessage(
  offer: ProblemsOffer,
  relativePath: (path: string) => string,
): ProblemsOfferMessage {
  return {
    turnId: offer.turnId,
    problems: offer.problems.map((problem) => ({
      path: relativePath(problem.path),
      line: problem.line,
      severity: problem.severity,
      message: problem.message,
      ...(problem.source ? { source: problem.source } : {}),
    })),
  };
}

/** The prompt that asks the agent to fix the offered problems: one line per problem. */
export function problemsPrompt(
  problems: readonly Problem[],
  relativePath: (path: string) => string,
): PromptBlock[] {
  const count = problems.length;
  const lines = problems.slice(0, LISTED_PROBLEMS).map((problem) => {
    const origin = [problem.source, problem.code].filter(Boolean).join(' ');
    return `- ${relativePath(problem.path)}:${problem.line}:${problem.column} ${problem.severity}: ${problem.message}${origin ? ` (${origin})` : ''}`;
  });
  if (count > LISTED_PROBLEMS) {
    lines.push(`- … and ${count - LISTED_PROBLEMS} more`);
  }
  const heading = `Fix ${count === 1 ? 'this new problem' : `these ${count} new problems`} that appeared in the files you changed:`;
  return [{ type: 'text', text: [heading, ...lines].join('\n') }];
}

/** Files the turn changed: its recorded change list, and the paths of its edit, delete and move tool calls. */
function changedPaths(thread: Thread, turnId: string): string[] {
  const paths = new Set<string>();
  for (const file of thread.turn(turnId)?.changes?.files ?? []) {
    paths.add(file.path);
  }
  for (const entry of thread.snapshot().entries) {
    if (entry.kind === 'tool_call' && entry.turnId === turnId && CHANGING_KINDS.has(entry.toolKind)) {
      for (const content of entry.content) {
        if (content.type === 'diff') {
          paths.add(content.path);
        }
      }
      for (const location of entry.locations) {
        paths.add(location.path);
      }
    }
  }
  return [...paths];
}

/** Problems are compared without their position: an edit above one moves it without making it new. */
function keyOf(problem: Problem): string {
  return [problem.path, problem.severity, problem.source ?? '', problem.code ?? '', problem.message].join(
    '\u0000',
  );
}

function counts(problems: readonly Problem[]): Map<string, number> {
  const result = new Map<string, number>();
  for (const problem of problems) {
    const key = keyOf(problem);
    result.set(key, (result.get(key) ?? 0) + 1);
  }
  return result;
}

function sortProblems(problems: readonly Problem[]): Problem[] {
  const rank = (problem: Problem): number => (problem.severity === 'error' ? 0 : 1);
  return [...problems].sort(
    (a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column,
  );
}
