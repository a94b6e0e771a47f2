import type * as acp from '@agentclientprotocol/sdk';
import { choiceCount, commandsOf, configOptionsOf, planOf, usageOf } from '../thread/normalize';
import { cutNoticeTitle, cutText, STATE_BOUNDS, type CutKind } from './stateBounds';
import type { SessionState, ThreadEvent } from '../thread/threadTypes';

/** The `session/update`s that change session-wide state rather than the transcript. */
export type StateUpdate = Extract<
  acp.SessionUpdate,
  {
    sessionUpdate:
      | 'plan'
      | 'available_commands_update'
      | 'current_mode_update'
      | 'config_option_update'
      | 'session_info_update'
      | 'usage_update';
  }
>;

export interface StateWriterHost {
  emit(event: ThreadEvent): void;
  modes(): SessionState['modes'];
  /** The turn a tool-call cut is noticed for (once per turn). */
  turnId(): string | undefined;
}

/**
 * A thread's session-wide state — plan, commands, modes, settings, title, usage — each bounded, with one
 * notice per kind of cut (per turn for tool calls), and only the part that changed sent and journaled.
 */
export class SessionStateWriter {
  /** What was cut and said so already: one notice each, not one per update. */
  private readonly cutsNoticed = new Set<string>();

  constructor(private readonly host: StateWriterHost) {}

  apply(update: StateUpdate): void {
    switch (update.sessionUpdate) {
      case 'plan':
        return this.set('plan', planOf(update));
      case 'available_commands_update': {
        const commands = commandsOf(update);
        this.noteCut('commands', update.availableCommands.length, commands.length);
        return this.set('commands', commands);
      }
      case 'current_mode_update': {
        const modes = this.host.modes();
        return this.set(
          'modes',
          modes
            ? { ...modes, currentModeId: update.currentModeId }
            : { currentModeId: update.currentModeId, available: [] },
        );
      }
      case 'config_option_update':
        return this.configOptions(update.configOptions);
      case 'session_info_update':
        if (update.title !== undefined) {
          this.set(
            'title',
            update.title === null ? undefined : cutText(update.title, STATE_BOUNDS.titleChars),
          );
        }
        return;
      case 'usage_update':
        return this.set('usage', usageOf(update));
    }
  }

  /** Replaces one part of the state; only that part travels and is journaled. */
  set<K extends keyof SessionState>(key: K, value: SessionState[K]): void {
    this.host.emit({
      type: 'state_updated',
      changed: key,
      state: value === undefined ? {} : { [key]: value },
    });
  }

  /** The agent's settings, bounded (the chat says when some were cut). */
  configOptions(options: readonly acp.SessionConfigOption[]): void {
    const kept = configOptionsOf(options);
    this.noteCut('configOptions', options.length, kept.length);
    const keptChoices = kept.reduce(
      (sum, option) => sum + (option.type === 'select' ? option.choices.length : 0),
      0,
    );
    this.noteCut('choices', choiceCount(options), keptChoices);
    this.set('configOptions', kept);
  }

  /** Says once per kind (per turn for tool calls) that the agent sent more than is kept. */
  noteCut(kind: CutKind, sent: number, kept: number): void {
    const key = kind === 'toolCalls' ? `toolCalls:${this.host.turnId() ?? ''}` : kind;
    if (sent <= kept || this.cutsNoticed.has(key)) {
      return;
    }
    this.cutsNoticed.add(key);
    this.host.emit({
      type: 'notice',
      notice: { severity: 'warning', title: cutNoticeTitle(kind, sent, kept) },
    });
  }
}
