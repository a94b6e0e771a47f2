import type * as acp from '@agentclientprotocol/sdk';
import { Emitter } from '../util/disposable';
import { continuesMessage, MessageTail } from './messageTail';
import { carriedOver, numberOf, takenUp } from './turnRecords';
import { SessionStateWriter } from '../session/sessionStateWriter';
import { boundToolContent, mergeToolCall, newToolCallEntry } from './toolCallEntries';
import { assertNever, attachmentOf, locationOf, noticeOf, textOf, toolContentOf } from './normalize';
import { STATE_BOUNDS } from '../session/stateBounds';
import {
  appendBounded,
  boundText,
  DEFAULT_MAX_MESSAGE_CHARS,
  DEFAULT_MAX_TOOL_OUTPUT_CHARS,
} from './textBudget';
import {
  applyThreadEvent,
  entryOf,
  snapshotOf,
  threadModelOf,
  turnOf,
  type ThreadModel,
} from '../../protocol/threadModel';
import type {
  AgentMessageEntry,
  Attachment,
  Notice,
  PermissionState,
  SessionState,
  ThoughtEntry,
  ThreadEntry,
  ThreadEvent,
  ThreadSnapshot,
  ToolCallEntry,
  Turn,
  UserMessageEntry,
} from './threadTypes';

export interface ThreadLimits {
  /** Characters kept per message or thought. */
  readonly maxMessageChars: number;
  /** Characters kept per tool output text or diff side. */
  readonly maxToolOutputChars: number;
}

type MessageEntry = UserMessageEntry | AgentMessageEntry | ThoughtEntry;

/**
 * A session's transcript: entries, turns and session-wide state, built from `session/update`s.
 * Every change is announced as a `ThreadEvent` and made by applying that very event to the
 * thread's model (`applyThreadEvent`, as the journal and the webview do), so a replay of the
 * events rebuilds `snapshot()`. The one exception: text arriving after a message hit its limit
 * is only counted (`truncated.omittedChars`), silently — a runaway agent must not cost an event
 * per dropped chunk.
 */
export class Thread {
  private model: ThreadModel = threadModelOf();
  private readonly toolEntryIds = new Map<string, string>();
  private nextEntry = 1;
  private nextTurn = 1;
  /** The turn new entries belong to: the running one, else the last one (late updates). */
  private currentTurnId: string | undefined;
  private replaying = false;
  /**
   * A step happened since the last message chunk: a tool call was created or updated, or the plan
   * changed. Agents rarely send a `messageId`, so this is what tells the text after a step (even one
   * updating an earlier card) from the text before it: it starts a new message instead of running on.
   */
  private stepSinceText = false;
  /** The end of the message being written past its limit, shown after its head once it is finished. */
  private readonly tail = new MessageTail();
  /** Tool calls the running turn added, for its bound. */
  private toolCallsThisTurn = 0;
  /** Plan, commands, modes, settings, title and usage: bounded, one notice per cut. */
  private readonly state = new SessionStateWriter({
    emit: (event) => this.emit(event),
    modes: () => this.model.state.modes,
    turnId: () => this.currentTurnId,
  });

  private readonly emitter = new Emitter<ThreadEvent>();
  readonly onEvent = this.emitter.event;
  readonly limits: ThreadLimits;

  constructor(limits: Partial<ThreadLimits> = {}) {
    this.limits = {
      maxMessageChars: limits.maxMessageChars ?? DEFAULT_MAX_MESSAGE_CHARS,
      maxToolOutputChars: limits.maxToolOutputChars ?? DEFAULT_MAX_TOOL_OUTPUT_CHARS,
    };
  }

  /**
   * A thread continued from a saved snapshot (the journal). A turn that was still running when
   * it was saved was cut off (VS Code closed or crashed): it ends as interrupted with `reason`, and
   * a permission it still asked is cancelled.
   */
  static restore(
    snapshot: ThreadSnapshot,
    limits: Partial<ThreadLimits> = {},
    reason = 'VS Code closed during the answer.',
  ): Thread {
    const thread = new Thread(limits);
    thread.model = threadModelOf(takenUp(snapshot, reason));
    for (const entry of snapshot.entries) {
      if (entry.kind === 'tool_call') {
        thread.toolEntryIds.set(entry.toolCallId, entry.id);
      }
      thread.nextEntry = Math.max(thread.nextEntry, numberOf(entry.id) + 1);
    }
    for (const turn of snapshot.turns) {
      thread.nextTurn = Math.max(thread.nextTurn, numberOf(turn.id) + 1);
    }
    thread.currentTurnId = snapshot.turns.at(-1)?.id;
    return thread;
  }

  snapshot(): ThreadSnapshot {
    return snapshotOf(this.model);
  }

  /** The newest turn, running or ended. */
  get lastTurn(): Turn | undefined {
    return this.model.turns.at(-1);
  }

  get runningTurn(): Turn | undefined {
    return this.lastTurn?.status === 'running' ? this.lastTurn : undefined;
  }

  entry(id: string): ThreadEntry | undefined {
    return entryOf(this.model, id);
  }

  toolCall(toolCallId: string): ToolCallEntry | undefined {
    const id = this.toolEntryIds.get(toolCallId);
    const entry = id === undefined ? undefined : this.entry(id);
    return entry?.kind === 'tool_call' ? entry : undefined;
  }

  /** While replaying (`session/load`), entries belong to no turn. */
  setReplaying(replaying: boolean): void {
    this.replaying = replaying;
  }

  startTurn(
    userText: string,
    attachments: readonly Attachment[],
    extra: Pick<Turn, 'checkpointId' | 'checkpointProblem'> = {},
  ): Turn {
    const turn: Turn = { id: `t${this.nextTurn++}`, status: 'running', startedAt: Date.now(), ...extra };
    this.currentTurnId = turn.id;
    this.toolCallsThisTurn = 0;
    this.emit({ type: 'turn_started', turn });
    this.addEntry({
      kind: 'user',
      id: this.newEntryId(),
      turnId: turn.id,
      text: userText,
      attachments: [...attachments],
    });
    return turn;
  }

  endTurn(turnId: string, outcome: Omit<Turn, 'id' | 'startedAt' | 'endedAt'>): Turn {
    const previous = this.turn(turnId);
    if (!previous) {
      throw new Error(`Unknown turn ${turnId}`);
    }
    this.finishTail();
    const turn: Turn = {
      ...outcome,
      id: turnId,
      startedAt: previous.startedAt,
      endedAt: Date.now(),
      ...carriedOver(previous),
    };
    this.emit({ type: 'turn_ended', turn });
    return turn;
  }

  /** Sets a turn's checkpoint (and what is wrong with it), changes or restore mark (also after it ended). */
  updateTurn(
    turnId: string,
    patch: Partial<Pick<Turn, 'checkpointId' | 'checkpointProblem' | 'changes' | 'restoredAt'>>,
  ): Turn {
    const previous = this.turn(turnId);
    if (!previous) {
      throw new Error(`Unknown turn ${turnId}`);
    }
    const turn: Turn = { ...previous, ...patch };
    this.emit({ type: 'turn_updated', turn });
    return turn;
  }

  turn(turnId: string): Turn | undefined {
    return turnOf(this.model, turnId);
  }

  /** Applies one `session/update`. */
  applyUpdate(update: acp.SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'user_message_chunk':
        return this.appendChunk('user', update);
      case 'agent_message_chunk':
        return this.appendChunk('agent', update);
      case 'agent_thought_chunk':
        return this.appendChunk('thought', update);
      case 'tool_call':
        this.upsertToolCall(update);
        return;
      case 'tool_call_update':
        this.upsertToolCall(update);
        return;
      case 'plan':
        this.stepSinceText = true;
        return this.state.apply(update);
      case 'available_commands_update':
      case 'current_mode_update':
      case 'config_option_update':
      case 'session_info_update':
      case 'usage_update':
        return this.state.apply(update);
      case 'notice':
        this.emit({ type: 'notice', notice: noticeOf(update) });
        return;
      case 'compaction_update':
      case 'compaction_summary_chunk':
        // Context compaction is the agent's bookkeeping; the transcript the user sees is unchanged.
        return;
      default:
        return assertNever(update);
    }
  }

  /** Replaces one part of the session-wide state (also used for the `session/new` response). */
  setState<K extends keyof SessionState>(key: K, value: SessionState[K]): void {
    this.state.set(key, value);
  }

  /** The agent's settings, bounded (the chat says when some were cut). */
  setConfigOptions(options: readonly acp.SessionConfigOption[]): void {
    this.state.configOptions(options);
  }

  /** Adds a notice of the client's own to the transcript. */
  notice(notice: Notice): void {
    this.emit({ type: 'notice', notice });
  }

  /**
   * Creates the tool call entry or updates it: a repeated `tool_call`, a `tool_call_update` or a
   * permission request may each be the first thing seen for an id (real agents do all three).
   */
  upsertToolCall(update: acp.ToolCallUpdate | acp.ToolCall): ToolCallEntry {
    this.stepSinceText = true;
    const known = this.toolCall(update.toolCallId);
    // A restarted agent may number its tool calls afresh: an id from an earlier turn, seen
    // again while a new turn runs, is a new tool call of this turn, not the old one revived.
    const running = this.replaying ? undefined : this.runningTurn;
    const existing = known && running && known.turnId !== running.id ? undefined : known;
    const content = update.content
      ? update.content.map((item) => boundToolContent(toolContentOf(item), this.limits.maxToolOutputChars))
      : undefined;
    const locations = update.locations ? update.locations.map(locationOf) : undefined;
    if (!existing) {
      const bounded = running !== undefined && this.toolCallsThisTurn >= STATE_BOUNDS.toolCallsPerTurn;
      const entry = newToolCallEntry(this.newEntryId(), this.turnField(), update, content, locations);
      if (bounded) {
        // Past the turn's bound: not added (nor remembered); `toolCall(id)` stays undefined for it.
        this.state.noteCut('toolCalls', this.toolCallsThisTurn + 1, this.toolCallsThisTurn);
        return entry;
      }
      if (running) {
        this.toolCallsThisTurn++;
      }
      this.toolEntryIds.set(update.toolCallId, entry.id);
      this.addEntry(entry);
      return entry;
    }
    return this.replaceEntry(mergeToolCall(existing, update, content, locations));
  }

  setPermission(toolCallId: string, permission: PermissionState): void {
    const entry = this.toolCall(toolCallId);
    if (entry) {
      this.replaceEntry({ ...entry, permission });
    }
  }

  private appendChunk(kind: MessageEntry['kind'], chunk: acp.ContentChunk): void {
    const text = textOf(chunk.content);
    const attachment = text === undefined ? attachmentOf(chunk.content) : undefined;
    const messageId = chunk.messageId ?? undefined;
    const last = this.model.entries.at(-1);
    const afterStep = this.stepSinceText;
    this.stepSinceText = false;
    const continues = continuesMessage(last, kind, this.entryTurnId(), messageId, afterStep);

    if (!continues) {
      const bounded = boundText(text ?? '', this.limits.maxMessageChars);
      const entry = {
        kind,
        id: this.newEntryId(),
        ...this.turnField(),
        text: bounded.text,
        attachments: attachment ? [attachment] : [],
        ...(bounded.truncated ? { truncated: bounded.truncated } : {}),
        ...(messageId !== undefined ? { messageId } : {}),
      } as MessageEntry;
      this.addEntry(entry);
      this.keepTail({ ...entry, truncated: undefined }, text ?? '', bounded.truncated);
      return;
    }
    const message = last as MessageEntry;
    if (attachment) {
      this.replaceEntry({ ...message, attachments: [...message.attachments, attachment] });
      return;
    }
    const result = appendBounded(message.text, text ?? '', this.limits.maxMessageChars, message.truncated);
    this.keepTail(message, text ?? '', result.truncated);
    const learnedId = messageId !== undefined && message.messageId === undefined;
    // Only a plain append travels as a delta (and builds no entry here: applying the event does); when more
    // than the text changed (truncation began, the message id became known) the whole entry goes, so a view
    // rebuilt from events matches snapshot().
    if (!learnedId && !(result.truncated && !message.truncated)) {
      if (result.appended.length > 0) {
        this.emit({ type: 'text_appended', entryId: message.id, text: result.appended });
      } else if (result.truncated) {
        // Past the limit the text is only counted, without an event (see the class comment).
        this.model.entries[this.model.entries.length - 1] = { ...message, truncated: result.truncated };
      }
      return;
    }
    const updated = {
      ...message,
      text: result.text,
      ...(result.truncated ? { truncated: result.truncated } : {}),
      ...(learnedId ? { messageId } : {}),
    } as MessageEntry;
    this.emit({ type: 'entry_updated', entry: updated });
  }

  private turnField(): { turnId?: string } {
    const turnId = this.entryTurnId();
    return turnId === undefined ? {} : { turnId };
  }

  /** The turn a new entry belongs to now (none while replaying history). */
  private entryTurnId(): string | undefined {
    return this.replaying ? undefined : this.currentTurnId;
  }

  private newEntryId(): string {
    return `e${this.nextEntry++}`;
  }

  private addEntry(entry: ThreadEntry): void {
    this.finishTail();
    this.emit({ type: 'entry_added', entry });
  }

  /** Past the limit, the end of the text is kept aside (the head and a marker are what streams). */
  private keepTail(message: MessageEntry, added: string, truncated: MessageEntry['truncated']): void {
    if (truncated && !message.truncated) {
      this.finishTail();
    }
    this.tail.keep(message, added, truncated);
  }

  /** The message past its limit is finished (another entry came, or the turn ended): its end is shown. */
  private finishTail(): void {
    const finished = this.tail.finish((id) => {
      const index = this.model.entryIndex.get(id);
      return index === undefined ? undefined : this.model.entries[index];
    });
    if (finished) {
      this.emit({ type: 'entry_updated', entry: finished });
    }
  }

  private replaceEntry<T extends ThreadEntry>(entry: T): T {
    if (!this.model.entryIndex.has(entry.id)) {
      throw new Error(`Unknown entry ${entry.id}`);
    }
    this.emit({ type: 'entry_updated', entry });
    return entry;
  }

  /** Changes the thread by applying the event, then announces it: listeners see the thread after it. */
  private emit(event: ThreadEvent): void {
    applyThreadEvent(this.model, event);
    this.emitter.fire(event);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
