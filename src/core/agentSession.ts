import type * as acp from '@agentclientprotocol/sdk';
import { methods } from '@agentclientprotocol/sdk';
import type { Disposable } from './disposable';
import { AgentError, AgentExitedError, classifyError } from './errors';
import { permissionOptionOf } from './normalize';
import type { Logger, PermissionDecision, PermissionPort, PermissionPrompt } from './ports';
import { describePrompt, toAcpContent, type PromptBlock } from './promptBlocks';
import type { Thread } from './thread';
import type { PermissionOption, Turn } from './threadTypes';

/** What a session needs from the connection that hosts it. */
export interface SessionHost {
  readonly agentId: string;
  readonly agentName: string;
  readonly agent: acp.ClientContext;
  readonly capabilities: acp.AgentCapabilities;
  readonly permissions: PermissionPort;
  readonly logger: Logger;
  /** Resolves with the exit error if the agent process has ended (or ends very soon), else undefined. */
  exitReport(): Promise<AgentExitedError | undefined>;
  /** Called when the session is closed, so the host stops routing to it. */
  forget(sessionId: string): void;
}

export interface SessionOptions {
  /** How long to wait for the agent to end a turn after `session/cancel` before ending it ourselves. */
  readonly cancelGraceMs?: number;
}

/** The updates that make up a transcript (as opposed to session state such as modes or commands). */
const TRANSCRIPT_UPDATES: ReadonlySet<acp.SessionUpdate['sessionUpdate']> = new Set([
  'user_message_chunk',
  'agent_message_chunk',
  'agent_thought_chunk',
  'tool_call',
  'tool_call_update',
  'plan',
]);

interface PendingPermission {
  readonly options: readonly PermissionOption[];
  readonly toolCallId: string;
  readonly abort: AbortController;
  settle(decision: PermissionDecision): void;
}

/**
 * One ACP session: its thread, its turns, and the permission requests waiting on the user. A
 * pending permission is state that holds its resolver; cancel, close, an inline answer, a dialog
 * answer or the agent going away each settle it, so the agent is never left hanging.
 */
export class AgentSession implements Disposable {
  readonly onEvent: Thread['onEvent'];
  private readonly pending = new Map<string, PendingPermission>();
  private nextPermission = 1;
  private updateCount = 0;
  private ignoringReplay = false;
  private cancelRequested = false;
  private forceEnd: (() => void) | undefined;
  private closed = false;
  private readonly cancelGraceMs: number;

  constructor(
    readonly id: string,
    /** The folder the session was created in (commands run there unless the agent says otherwise). */
    readonly cwd: string,
    readonly thread: Thread,
    private readonly host: SessionHost,
    options: SessionOptions = {},
  ) {
    this.onEvent = thread.onEvent;
    this.cancelGraceMs = options.cancelGraceMs ?? 10_000;
  }

  get isRunning(): boolean {
    return this.thread.runningTurn !== undefined;
  }

  /** Routed here by the connection for this session's `session/update`s. */
  handleUpdate(update: acp.SessionUpdate): void {
    this.updateCount++;
    if (this.ignoringReplay && TRANSCRIPT_UPDATES.has(update.sessionUpdate)) {
      return;
    }
    this.thread.applyUpdate(update);
  }

  /** While on, replayed messages and tool calls are dropped (the thread already has them). */
  ignoreReplayedTranscript(on: boolean): void {
    this.ignoringReplay = on;
  }

  /**
   * Sends a prompt and runs the turn to its end. Resolves with the ended turn — completed,
   * cancelled, failed (a classified error) or interrupted (the agent exited) — and never rejects
   * for agent-side failures: they are part of the transcript.
   */
  async prompt(blocks: readonly PromptBlock[], turnFields: Pick<Turn, 'checkpointId'> = {}): Promise<Turn> {
    if (this.closed) {
      throw new AgentError('invalid_params', 'This session is closed.');
    }
    if (this.isRunning) {
      throw new AgentError('invalid_params', 'A turn is already running in this session.');
    }
    const content = toAcpContent(blocks, this.host.capabilities.promptCapabilities, this.host.agentName);
    const { text, attachments } = describePrompt(blocks);
    const turn = this.thread.startTurn(text, attachments, turnFields);
    this.cancelRequested = false;

    const forcedEnd = new Promise<'forced'>((resolve) => (this.forceEnd = () => resolve('forced')));
    const response = this.host.agent
      .request(methods.agent.session.prompt, { sessionId: this.id, prompt: content })
      .then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
    const result = await Promise.race([response, forcedEnd]);
    this.forceEnd = undefined;

    if (result === 'forced') {
      this.host.logger.warn(
        `${this.host.agentName} did not end the cancelled turn in ${this.cancelGraceMs} ms; ended it locally.`,
      );
      return this.thread.endTurn(turn.id, { status: 'cancelled', stopReason: 'cancelled' });
    }
    if (result.ok) {
      await this.drainUpdates();
      const stopReason = result.value.stopReason;
      const cancelled = stopReason === 'cancelled' || this.cancelRequested;
      return this.thread.endTurn(turn.id, { status: cancelled ? 'cancelled' : 'completed', stopReason });
    }
    return this.endFailedTurn(turn.id, result.error);
  }

  private async endFailedTurn(turnId: string, cause: unknown): Promise<Turn> {
    this.settleAllPermissions();
    const error = classifyError(cause);
    if (error.kind === 'cancelled') {
      return this.thread.endTurn(turnId, { status: 'cancelled' });
    }
    const exited =
      error instanceof AgentExitedError
        ? error
        : error.code === undefined
          ? await this.host.exitReport()
          : undefined;
    if (exited) {
      // Partial text stays in the thread; the turn says why it stopped.
      return this.thread.endTurn(turnId, {
        status: 'interrupted',
        error: { kind: exited.kind, message: exited.message },
        stderrTail: exited.stderrTail,
      });
    }
    return this.thread.endTurn(turnId, {
      status: 'failed',
      error: {
        kind: error.kind,
        message: error.message,
        ...(error.code === undefined ? {} : { code: error.code }),
      },
    });
  }

  /**
   * The SDK can deliver a turn's last `session/update`s after the prompt response resolved; let
   * the ones already read from the pipe land before the turn is declared over. Later ones still
   * attach to this turn, which stays the thread's current one.
   */
  private async drainUpdates(): Promise<void> {
    for (let round = 0; round < 50; round++) {
      const seen = this.updateCount;
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.updateCount === seen) {
        return;
      }
    }
  }

  /** Cancels the running turn: settles pending permissions as cancelled and tells the agent. */
  async cancel(): Promise<void> {
    if (!this.isRunning) {
      return;
    }
    this.cancelRequested = true;
    this.settleAllPermissions();
    const forceEnd = this.forceEnd;
    const timer = setTimeout(() => forceEnd?.(), this.cancelGraceMs);
    timer.unref?.();
    try {
      await this.host.agent.notify(methods.agent.session.cancel, { sessionId: this.id });
    } catch (error) {
      this.host.logger.warn(`session/cancel could not be sent: ${classifyError(error).message}`);
      forceEnd?.();
    }
  }

  /** Handles the agent's `session/request_permission` for this session. */
  async requestPermission(
    params: acp.RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<acp.RequestPermissionResponse> {
    const key = `perm-${this.nextPermission++}`;
    const options = params.options.map(permissionOptionOf);
    const toolCall = this.thread.upsertToolCall(params.toolCall);

    const decision = await new Promise<PermissionDecision>((resolve) => {
      const abort = new AbortController();
      const pending: PendingPermission = {
        options,
        toolCallId: toolCall.toolCallId,
        abort,
        settle: (decision) => {
          if (!this.pending.delete(key)) {
            return;
          }
          abort.abort();
          resolve(decision);
        },
      };
      this.pending.set(key, pending);
      this.thread.setPermission(toolCall.toolCallId, { key, options, status: 'pending' });
      signal.addEventListener('abort', () => pending.settle({ outcome: 'cancelled' }), { once: true });
      if (this.cancelRequested || this.closed || signal.aborted) {
        pending.settle({ outcome: 'cancelled' });
        return;
      }
      const prompt: PermissionPrompt = {
        agentId: this.host.agentId,
        sessionId: this.id,
        key,
        toolCall: this.thread.toolCall(toolCall.toolCallId) ?? toolCall,
        options,
      };
      this.host.permissions.request(prompt, abort.signal).then(
        (answer) => this.answerPermission(key, answer),
        (error: unknown) => {
          this.host.logger.error(`Permission prompt failed: ${classifyError(error).message}`);
          pending.settle({ outcome: 'cancelled' });
        },
      );
    });

    const chosen =
      decision.outcome === 'selected' ? options.find((o) => o.optionId === decision.optionId) : undefined;
    const final: PermissionDecision = chosen
      ? { outcome: 'selected', optionId: chosen.optionId }
      : { outcome: 'cancelled' };
    const settledPrompt: PermissionPrompt = {
      agentId: this.host.agentId,
      sessionId: this.id,
      key,
      toolCall: this.thread.toolCall(toolCall.toolCallId) ?? toolCall,
      options,
    };
    try {
      this.host.permissions.settled?.(settledPrompt, final);
    } catch (error) {
      this.host.logger.error(`Permission bookkeeping failed: ${classifyError(error).message}`);
    }
    this.thread.setPermission(toolCall.toolCallId, {
      key,
      options,
      status: chosen ? 'selected' : 'cancelled',
      ...(chosen ? { selectedOptionId: chosen.optionId } : {}),
    });
    this.host.logger.info(
      `Permission for "${toolCall.title}" (${toolCall.toolCallId}): ${chosen ? `${chosen.kind} (${chosen.optionId})` : 'cancelled'}`,
    );
    return { outcome: final };
  }

  /**
   * Answers a pending permission (from an inline card or a dialog). The first answer wins; an
   * option the agent did not offer counts as no answer. Returns false when nothing was pending.
   */
  answerPermission(key: string, decision: PermissionDecision): boolean {
    const pending = this.pending.get(key);
    if (!pending) {
      return false;
    }
    if (decision.outcome === 'selected' && !pending.options.some((o) => o.optionId === decision.optionId)) {
      this.host.logger.warn(
        `Permission ${key}: option "${decision.optionId}" was not offered; treated as cancelled.`,
      );
      pending.settle({ outcome: 'cancelled' });
      return true;
    }
    pending.settle(decision);
    return true;
  }

  /** Keys of the permission requests still waiting for an answer. */
  pendingPermissionKeys(): string[] {
    return [...this.pending.keys()];
  }

  private settleAllPermissions(): void {
    for (const pending of [...this.pending.values()]) {
      pending.settle({ outcome: 'cancelled' });
    }
  }

  async setMode(modeId: string): Promise<void> {
    await this.host.agent
      .request(methods.agent.session.setMode, { sessionId: this.id, modeId })
      .catch(rethrowClassified);
    const modes = this.thread.snapshot().state.modes;
    if (modes) {
      this.thread.setState('modes', { ...modes, currentModeId: modeId });
    }
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const params: acp.SetSessionConfigOptionRequest =
      typeof value === 'boolean'
        ? { sessionId: this.id, configId, type: 'boolean', value }
        : { sessionId: this.id, configId, value };
    const response = await this.host.agent
      .request(methods.agent.session.setConfigOption, params)
      .catch(rethrowClassified);
    this.handleUpdate({ sessionUpdate: 'config_option_update', configOptions: response.configOptions });
  }

  /** The agent went away: nothing pending may wait for it. */
  abandon(): void {
    this.settleAllPermissions();
  }

  /** Stops routing and settles what is pending; `AgentClient.closeSession` also tells the agent. */
  dispose(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.settleAllPermissions();
    this.host.forget(this.id);
  }
}

function rethrowClassified(error: unknown): never {
  throw classifyError(error);
}
