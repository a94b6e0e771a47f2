import type * as acp from '@agentclientprotocol/sdk';
import { methods } from '@agentclientprotocol/sdk';
import type { Disposable } from '../util/disposable';
import * as z from 'zod';
import { boundedJson, shorten } from '../util/boundedJson';
import {
  AgentError,
  AgentExitedError,
  classifyError,
  describeErrorForLog,
  errorDetails,
} from '../connection/errors';
import { PermissionQueue } from './permissionQueue';
import type { Logger, PermissionDecision, PermissionPort } from '../ports';
import { describePrompt, keepUnsentPrompt, toAcpContent, type PromptBlock } from './promptBlocks';
import type { Thread } from '../thread/thread';
import { withinDeadline, type DeadlineHost } from '../connection/deadlines';
import type { Turn } from '../thread/threadTypes';
import { StreamScrubber } from '../secrets/streamScrubber';
import { StoppedTurnGate } from './stoppedTurn';

/** What a session needs from the connection that hosts it. */
export interface SessionHost {
  readonly agentId: string;
  readonly agentName: string;
  readonly agent: acp.ClientContext;
  readonly capabilities: acp.AgentCapabilities;
  readonly permissions: PermissionPort;
  readonly logger: Logger;
  /** The deadlines of the session's requests (`session/set_mode`, `session/set_config_option`). */
  readonly deadline: DeadlineHost;
  /** The error that ended the agent (its exit or a lost connection) if it is gone, else undefined. */
  exitReport(): Promise<AgentError | undefined>;
  /** Called when the session is closed, so the host stops routing to it. */
  forget(sessionId: string): void;
  /** Releases (and kills) the session's terminals: it ended, or its agent went away. */
  releaseTerminals?(): Promise<void>;
}

export interface SessionOptions {
  /** After Stop, how long the agent has to answer the cancelled prompt before a warning is logged. */
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

/** What `session/prompt` must answer; anything else (null, a number, an unknown reason) ends the turn as failed. */
const PromptResponseSchema = z.looseObject({
  stopReason: z.enum(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled']),
});

/**
 * One ACP session: its thread, its turns, and the permission requests waiting on the user. A
 * pending permission is state that holds its resolver; cancel, close, an inline answer, a dialog
 * answer or the agent going away each settle it, so the agent is never left hanging.
 */
export class AgentSession implements Disposable {
  readonly onEvent: Thread['onEvent'];
  private readonly permissions: PermissionQueue;
  /** The agent's open elicitations on this session: aborted by Stop, close and the agent going away. */
  private readonly elicitations = new Set<AbortController>();
  private updateCount = 0;
  private ignoringReplay = false;
  /** Secrets scrubbed from the agent's updates, also when split across chunks. */
  private readonly scrubber = new StreamScrubber();
  private cancelRequested = false;
  /** After Stop: the next turn waits for the stopped one's answer, whose late updates are dropped. */
  private readonly stoppedTurn: StoppedTurnGate;
  /** Ends the running turn as cancelled without waiting for the agent (set while a turn runs). */
  private stopTurn: (() => void) | undefined;
  private closed = false;

  constructor(
    readonly id: string,
    /** The folder the session was created in (commands run there unless the agent says otherwise). */
    readonly cwd: string,
    readonly thread: Thread,
    private readonly host: SessionHost,
    options: SessionOptions = {},
  ) {
    this.onEvent = thread.onEvent;
    this.permissions = new PermissionQueue({
      agentId: host.agentId,
      sessionId: id,
      thread,
      permissions: host.permissions,
      logger: host.logger,
      stopped: () => this.cancelRequested || this.closed,
    });
    this.stoppedTurn = new StoppedTurnGate({
      agentName: host.agentName,
      logger: host.logger,
      graceMs: options.cancelGraceMs ?? 10_000,
      drainUpdates: () => this.drainUpdates(),
    });
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
    if (TRANSCRIPT_UPDATES.has(update.sessionUpdate) && this.stoppedTurn.drops()) {
      return;
    }
    for (const scrubbed of this.scrubber.accept(update)) {
      this.thread.applyUpdate(scrubbed);
    }
  }

  /** Ends the turn in the thread, after any text held back by the scrubber. */
  private endTurn(turnId: string, outcome: Parameters<Thread['endTurn']>[1]): Turn {
    for (const held of this.scrubber.flush()) {
      this.thread.applyUpdate(held);
    }
    return this.thread.endTurn(turnId, outcome);
  }

  /** While on, replayed messages and tool calls are dropped (the thread already has them). */
  ignoreReplayedTranscript(on: boolean): void {
    this.ignoringReplay = on;
  }

  /**
   * Sends a prompt and runs the turn to its end. Resolves with the ended turn — completed,
   * cancelled, failed (a classified error, also for a malformed answer) or interrupted (the agent
   * exited) — and never rejects for agent-side failures: they are part of the transcript. Whatever
   * happens, the turn ends: a later prompt never meets a turn left "running".
   */
  async prompt(
    blocks: readonly PromptBlock[],
    turnFields: Pick<Turn, 'checkpointId' | 'checkpointProblem'> = {},
    /** Stop was pressed before the prompt went out: the turn is recorded as cancelled, nothing is sent. */
    { cancelledBeforeSending = false }: { readonly cancelledBeforeSending?: boolean } = {},
  ): Promise<Turn> {
    if (this.closed) {
      throw new AgentError('invalid_params', 'This session is closed.');
    }
    if (this.isRunning) {
      throw new AgentError('invalid_params', 'A turn is already running in this session.');
    }
    if (cancelledBeforeSending) {
      return keepUnsentPrompt(this.thread, blocks, turnFields);
    }
    const content = toAcpContent(blocks, this.host.capabilities.promptCapabilities, this.host.agentName);
    const { text, attachments } = describePrompt(blocks);
    const turn = this.thread.startTurn(text, attachments, turnFields);
    this.cancelRequested = false;
    try {
      return await this.runTurn(turn.id, content);
    } catch (error) {
      // A bug of ours must not leave the turn running either.
      this.host.logger.error(`The turn ended unexpectedly: ${describeErrorForLog(error)}`);
      return this.endIfRunning(turn.id, {
        status: 'failed',
        error: { ...errorDetails(error), kind: 'internal' },
      });
    } finally {
      this.stopTurn = undefined;
    }
  }

  private async runTurn(turnId: string, content: acp.ContentBlock[]): Promise<Turn> {
    const stopped = new Promise<'stopped'>((resolve) => (this.stopTurn = () => resolve('stopped')));
    // A turn stopped here may still be running on the agent: this prompt waits for its answer.
    if ((await this.stoppedTurn.beforeNextTurn(stopped)) === 'stopped') {
      return this.endTurn(turnId, { status: 'cancelled', stopReason: 'cancelled' });
    }
    const response = this.host.agent
      .request(methods.agent.session.prompt, { sessionId: this.id, prompt: content })
      .then(
        (value: unknown) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
    const result = await Promise.race([response, stopped]);

    if (result === 'stopped') {
      // The user pressed Stop: the turn ends now. The agent's late answer (and updates) are absorbed.
      this.stoppedTurn.stopped(response);
      return this.endTurn(turnId, { status: 'cancelled', stopReason: 'cancelled' });
    }
    if (!result.ok) {
      return this.endFailedTurn(turnId, result.error);
    }
    const parsed = PromptResponseSchema.safeParse(result.value);
    await this.drainUpdates();
    if (!parsed.success) {
      this.settleAllPermissions();
      const sent = shorten(boundedJson(result.value, { maxChars: 400, maxDepth: 8 }), 200);
      this.host.logger.error(`${this.host.agentName} answered session/prompt with ${sent}`);
      return this.endTurn(turnId, {
        status: 'failed',
        error: {
          kind: 'internal',
          message: `${this.host.agentName} sent a malformed answer to the prompt (${sent}); the turn was ended. You can send another message.`,
        },
      });
    }
    const stopReason = parsed.data.stopReason;
    const cancelled = stopReason === 'cancelled' || this.cancelRequested;
    return this.endTurn(turnId, { status: cancelled ? 'cancelled' : 'completed', stopReason });
  }

  private endIfRunning(turnId: string, outcome: Omit<Turn, 'id' | 'startedAt' | 'endedAt'>): Turn {
    const ended = this.thread
      .snapshot()
      .turns.find((turn) => turn.id === turnId && turn.status !== 'running');
    return ended ?? this.endTurn(turnId, outcome);
  }

  private async endFailedTurn(turnId: string, cause: unknown): Promise<Turn> {
    this.settleAllPermissions();
    const error = classifyError(cause);
    if (error.kind === 'cancelled') {
      return this.endTurn(turnId, { status: 'cancelled' });
    }
    const exited =
      error instanceof AgentExitedError
        ? error
        : error.code === undefined
          ? await this.host.exitReport()
          : undefined;
    if (exited) {
      // Partial text stays in the thread; the turn says why it stopped.
      return this.endTurn(turnId, {
        status: 'interrupted',
        error: errorDetails(exited),
        ...(exited instanceof AgentExitedError ? { stderrTail: exited.stderrTail } : {}),
      });
    }
    // The chat shows the details; the log keeps them with the causes, for a bug report.
    this.host.logger.error(`${this.host.agentName} failed the prompt: ${describeErrorForLog(error)}`);
    return this.endTurn(turnId, { status: 'failed', error: errorDetails(error) });
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

  /**
   * Stop: settles pending permissions as cancelled, tells the agent, and ends the turn at once —
   * the user does not wait for the agent. What it still sends for the turn is absorbed.
   */
  async cancel(): Promise<void> {
    if (!this.isRunning) {
      return;
    }
    this.cancelRequested = true;
    this.settleAllPermissions();
    // Not awaited before the turn ends: an agent that stopped reading its stdin must not hold up Stop.
    const sent = this.host.agent.notify(methods.agent.session.cancel, { sessionId: this.id });
    this.stopTurn?.();
    try {
      await sent;
    } catch (error) {
      this.host.logger.warn(`session/cancel could not be sent: ${classifyError(error).message}`);
    }
  }

  /** Handles the agent's `session/request_permission` for this session: queued, one shown at a time. */
  requestPermission(
    params: acp.RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<acp.RequestPermissionResponse> {
    return this.permissions.request(params, signal);
  }

  /**
   * Answers a pending permission (from an inline card or a dialog). The first answer wins; an
   * option the agent did not offer counts as no answer. Returns false when nothing was pending.
   */
  answerPermission(key: string, decision: PermissionDecision): boolean {
    return this.permissions.answer(key, decision);
  }

  /** Keys of the permission requests still waiting for an answer. */
  pendingPermissionKeys(): string[] {
    return this.permissions.keys();
  }

  private settleAllPermissions(): void {
    this.permissions.settleAll();
    for (const elicitation of [...this.elicitations]) {
      elicitation.abort();
    }
  }

  /**
   * A signal for one of the agent's elicitations on this session: it aborts with `request` (the
   * agent cancelled it), at Stop, when the session closes or when the agent goes away.
   */
  elicitationScope(request: AbortSignal): { readonly signal: AbortSignal; dispose(): void } {
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    request.addEventListener('abort', abort, { once: true });
    if (request.aborted || this.closed || this.cancelRequested) {
      controller.abort();
    }
    this.elicitations.add(controller);
    return {
      signal: controller.signal,
      dispose: () => {
        request.removeEventListener('abort', abort);
        this.elicitations.delete(controller);
      },
    };
  }

  async setMode(modeId: string): Promise<void> {
    await withinDeadline(this.host.deadline, 'session/set_mode', (cancellationSignal) =>
      this.host.agent.request(
        methods.agent.session.setMode,
        { sessionId: this.id, modeId },
        { cancellationSignal },
      ),
    ).catch(rethrowClassified);
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
    const response = await withinDeadline(
      this.host.deadline,
      'session/set_config_option',
      (cancellationSignal) =>
        this.host.agent.request(methods.agent.session.setConfigOption, params, { cancellationSignal }),
    ).catch(rethrowClassified);
    this.handleUpdate({ sessionUpdate: 'config_option_update', configOptions: response.configOptions });
  }

  /** The agent went away: nothing pending may wait for it. */
  abandon(): void {
    this.settleAllPermissions();
    this.releaseTerminals();
  }

  /** Stops routing and settles what is pending; `AgentClient.closeSession` also tells the agent. */
  dispose(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.settleAllPermissions();
    this.releaseTerminals();
    this.host.forget(this.id);
  }

  private releaseTerminals(): void {
    this.host.releaseTerminals?.().catch((error: unknown) => {
      this.host.logger.warn(`Could not release the session's terminals: ${classifyError(error).message}`);
    });
  }
}

function rethrowClassified(error: unknown): never {
  throw classifyError(error);
}
