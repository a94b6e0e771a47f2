import type * as acp from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { classifyError } from '../connection/errors';
import { permissionOptionOf } from '../thread/normalize';
import type { Logger, PermissionDecision, PermissionPort, PermissionPrompt } from '../ports';
import type { Thread } from '../thread/thread';
import type { PermissionOption, ToolCallEntry } from '../thread/threadTypes';

/** Requests that may wait for the user in one session; more are refused (the agent is told why). */
export const MAX_WAITING_PERMISSIONS = 64;

export interface PermissionQueueHost {
  readonly agentId: string;
  readonly sessionId: string;
  readonly thread: Thread;
  readonly permissions: PermissionPort;
  readonly logger: Logger;
  /** Stop was pressed or the session closed: new requests are cancelled at once. */
  stopped(): boolean;
}

interface Waiting {
  readonly key: string;
  readonly options: readonly PermissionOption[];
  readonly toolCall: ToolCallEntry;
  readonly abort: AbortController;
  /** It waited behind another request (so a dialog for it would follow another one). */
  readonly following: boolean;
  asked: boolean;
  settle(decision: PermissionDecision): void;
}

/**
 * One session's permission requests, asked one at a time in the order they came: the first is
 * shown (inline or in a dialog) with how many wait behind it, the next when it is answered. At
 * most `MAX_WAITING_PERMISSIONS` wait; beyond that the agent's request is refused with a reason
 * and the chat says so once a turn. Stop settles them all as cancelled.
 */
export class PermissionQueue {
  private readonly waiting = new Map<string, Waiting>();
  private nextKey = 1;
  /** Turns whose refusals were told already. */
  private readonly refusalsTold = new Set<string>();

  constructor(private readonly host: PermissionQueueHost) {}

  /** Keys of the requests still waiting for an answer (asked or queued). */
  keys(): string[] {
    return [...this.waiting.keys()];
  }

  async request(
    params: acp.RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<acp.RequestPermissionResponse> {
    const thread = this.host.thread;
    if (this.host.stopped() || signal.aborted) {
      // After Stop nothing is asked, nor added to the transcript.
      return { outcome: { outcome: 'cancelled' } };
    }
    if (this.waiting.size >= MAX_WAITING_PERMISSIONS) {
      this.refuse(`${MAX_WAITING_PERMISSIONS} permission requests of this session already wait for the user`);
    }
    const shown = thread.upsertToolCall(params.toolCall);
    if (!thread.toolCall(shown.toolCallId)) {
      this.refuse('its tool call is past the number of tool calls shown for this turn');
    }
    const key = `perm-${this.nextKey++}`;
    const options = params.options.map(permissionOptionOf);
    const decision = await new Promise<PermissionDecision>((resolve) => {
      const abort = new AbortController();
      const entry: Waiting = {
        key,
        options,
        toolCall: shown,
        abort,
        following: this.waiting.size > 0,
        asked: false,
        settle: (decision) => {
          if (!this.waiting.delete(key)) {
            return;
          }
          abort.abort();
          resolve(decision);
          this.askNext();
        },
      };
      this.waiting.set(key, entry);
      signal.addEventListener('abort', () => entry.settle({ outcome: 'cancelled' }), { once: true });
      if (this.host.stopped() || signal.aborted) {
        entry.settle({ outcome: 'cancelled' });
        return;
      }
      this.askNext();
    });
    return { outcome: this.finish(key, shown, options, decision) };
  }

  /**
   * Answers a waiting request (from an inline card or a dialog). The first answer wins; an option
   * the agent did not offer counts as no answer. Returns false when nothing was waiting.
   */
  answer(key: string, decision: PermissionDecision): boolean {
    const entry = this.waiting.get(key);
    if (!entry) {
      return false;
    }
    if (decision.outcome === 'selected' && !entry.options.some((o) => o.optionId === decision.optionId)) {
      this.host.logger.warn(
        `Permission ${key}: option "${decision.optionId}" was not offered; treated as cancelled.`,
      );
      entry.settle({ outcome: 'cancelled' });
      return true;
    }
    entry.settle(decision);
    return true;
  }

  settleAll(): void {
    for (const entry of [...this.waiting.values()].reverse()) {
      // Last first: settling the head would ask the next one for a moment.
      entry.settle({ outcome: 'cancelled' });
    }
  }

  /** Shows the first waiting request (asking the user), or refreshes its "N more" count. */
  private askNext(): void {
    const head = this.waiting.values().next().value;
    if (!head) {
      return;
    }
    const more = this.waiting.size - 1;
    this.host.thread.setPermission(head.toolCall.toolCallId, {
      key: head.key,
      options: [...head.options],
      status: 'pending',
      ...(more > 0 ? { waiting: more } : {}),
    });
    if (head.asked) {
      return;
    }
    head.asked = true;
    const prompt: PermissionPrompt = {
      agentId: this.host.agentId,
      sessionId: this.host.sessionId,
      key: head.key,
      toolCall: this.host.thread.toolCall(head.toolCall.toolCallId) ?? head.toolCall,
      options: head.options,
      waiting: more,
      following: head.following,
    };
    this.host.permissions.request(prompt, head.abort.signal).then(
      (answer) => this.answer(head.key, answer),
      (error: unknown) => {
        this.host.logger.error(`Permission prompt failed: ${classifyError(error).message}`);
        head.settle({ outcome: 'cancelled' });
      },
    );
  }

  /** Records the final decision on the tool call and tells the port (e.g. to remember "always"). */
  private finish(
    key: string,
    toolCall: ToolCallEntry,
    options: readonly PermissionOption[],
    decision: PermissionDecision,
  ): PermissionDecision {
    const chosen =
      decision.outcome === 'selected' ? options.find((o) => o.optionId === decision.optionId) : undefined;
    const final: PermissionDecision = chosen
      ? { outcome: 'selected', optionId: chosen.optionId }
      : { outcome: 'cancelled' };
    const thread = this.host.thread;
    const settledPrompt: PermissionPrompt = {
      agentId: this.host.agentId,
      sessionId: this.host.sessionId,
      key,
      toolCall: thread.toolCall(toolCall.toolCallId) ?? toolCall,
      options,
    };
    try {
      this.host.permissions.settled?.(settledPrompt, final);
    } catch (error) {
      this.host.logger.error(`Permission bookkeeping failed: ${classifyError(error).message}`);
    }
    thread.setPermission(toolCall.toolCallId, {
      key,
      options: [...options],
      status: chosen ? 'selected' : 'cancelled',
      ...(chosen ? { selectedOptionId: chosen.optionId } : {}),
    });
    this.host.logger.info(
      `Permission for "${toolCall.title}" (${toolCall.toolCallId}): ${chosen ? `${chosen.kind} (${chosen.optionId})` : 'cancelled'}`,
    );
    return final;
  }

  /** Refuses a request with a reason the agent gets; the chat says so once per turn. */
  private refuse(reason: string): never {
    const turnId = this.host.thread.runningTurn?.id ?? '';
    if (!this.refusalsTold.has(turnId)) {
      this.refusalsTold.add(turnId);
      this.host.thread.notice({
        severity: 'warning',
        title: 'The agent asked for more permissions than can wait; further requests were refused.',
        description: `Refused because ${reason}.`,
      });
      this.host.logger.warn(`Permission requests refused: ${reason}.`);
    }
    throw new RequestError(-32000, `Permission request refused: ${reason}.`);
  }
}
