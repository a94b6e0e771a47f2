import { fileURLToPath, pathToFileURL } from 'node:url';
import { AgentClient, type AgentClientOptions } from '../../core/agentClient';
import type { AgentSession } from '../../core/agentSession';
import { Emitter, type Disposable } from '../../core/disposable';
import { AgentExitedError, classifyError, type AgentError } from '../../core/errors';
import type { ClientPorts, Logger } from '../../core/ports';
import type { PromptBlock } from '../../core/promptBlocks';
import { Thread } from '../../core/thread';
import type { ThreadEvent } from '../../core/threadTypes';
import {
  ViewMessageSchema,
  type AgentStatus,
  type AttachmentRef,
  type ViewMessage,
  type ViewState,
} from '../../protocol';
import type { AgentDefinition, ParsedAgents } from '../agentSettings';
import { EventBatcher } from './eventBatcher';
import { signIn, type SignInHost } from './signIn';
import { TerminalRelay } from './terminalRelay';
import type { EditorActions, ViewSink } from './viewSink';

/** What the chat needs from its surroundings. */
export interface ChatHost {
  readonly agents: () => ParsedAgents;
  /** The folder sessions run in. */
  readonly cwd: () => string;
  readonly ports: ClientPorts & { readonly logger: Logger };
  readonly editor: EditorActions;
  readonly clientOptions?: Partial<AgentClientOptions>;
  /** The agent to select first (`acpAgents.defaultAgent`), when it is offered. */
  readonly defaultAgentId?: () => string | undefined;
  /** Terminal logins and keys; without it only agent-handled sign-in works. */
  readonly signIn?: SignInHost;
  /** False in an untrusted workspace: then no agent is started. */
  readonly trusted?: () => boolean;
  /** Shows progress (a notification) while an agent starts. */
  readonly progress?: <T>(title: string, work: Promise<T>) => Promise<T>;
}

/**
 * The sidebar chat's brain, free of `vscode`: which agent is selected, its process and session,
 * the transcript, and the conversation with the webview (ready handshake, full snapshot, then
 * coalesced events). Every message from the webview is parsed before it is acted on.
 */
export class ChatController implements Disposable {
  private sink: ViewSink | undefined;
  private ready = false;
  private selectedAgentId: string | undefined;
  private client: AgentClient | undefined;
  /** The agent the running client was started for. */
  private clientAgentId: string | undefined;
  private starting: Promise<AgentClient | undefined> | undefined;
  private session: AgentSession | undefined;
  private thread: Thread;
  private threadSubscription: Disposable | undefined;
  private chatNumber = 0;
  private chatId = '';
  private status: AgentStatus = { state: 'idle' };
  /** Text that could not be sent because the agent needs a sign-in; sent after `authenticate`. */
  private waitingForSignIn: readonly PromptBlock[] | undefined;
  private attachments: AttachmentRef[] = [];
  private readonly batcher = new EventBatcher((events) => this.postEvents(events));
  private readonly terminals: TerminalRelay;
  private readonly statusEmitter = new Emitter<AgentStatus>();
  /** The agent's state, for the status bar. */
  readonly onStatus = this.statusEmitter.event;
  private readonly workingEmitter = new Emitter<boolean>();
  /** Whether a turn is running, each time that changes (for the status bar). */
  readonly onWorking = this.workingEmitter.event;

  constructor(private readonly host: ChatHost) {
    this.thread = this.newThread();
    this.terminals = new TerminalRelay(host.ports.terminals, (terminal) =>
      this.post({ type: 'terminal_output', terminal }),
    );
  }

  /** A webview (re)connected. Nothing is posted to it before it says `ready`. */
  attachView(sink: ViewSink): Disposable {
    this.sink = sink;
    this.ready = false;
    return {
      dispose: () => {
        if (this.sink === sink) {
          this.sink = undefined;
          this.ready = false;
          this.batcher.clear();
        }
      },
    };
  }

  /** Handles one message from the webview; a malformed one is logged and answered with an error. */
  async handleMessage(raw: unknown): Promise<void> {
    const parsed = ViewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      const problem = parsed.error.issues
        .map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`)
        .join('; ');
      this.host.ports.logger.warn(`Ignored an invalid message from the chat view (${problem})`);
      this.post({ type: 'error', message: `The chat view sent an invalid message (${problem}).` });
      return;
    }
    try {
      await this.dispatch(parsed.data);
    } catch (error) {
      const failure = classifyError(error);
      this.host.ports.logger.error(`${parsed.data.type} failed: ${failure.message}`);
      this.post({ type: 'error', message: failure.message });
    }
  }

  private async dispatch(message: ViewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.postSnapshot();
        if (this.status.state === 'idle') {
          void this.ensureSession();
        }
        return;
      case 'send':
        this.attachments = [];
        return this.sendPrompt([
          { type: 'text', text: message.text },
          ...(await this.attachmentBlocks(message.attachments ?? [])),
        ]);
      case 'cancel':
        return this.session?.cancel();
      case 'answer_permission':
        this.session?.answerPermission(
          message.key,
          message.optionId === null
            ? { outcome: 'cancelled' }
            : { outcome: 'selected', optionId: message.optionId },
        );
        return;
      case 'select_agent':
        return this.selectAgent(message.agentId);
      case 'set_mode':
        return this.requireSession().setMode(message.modeId);
      case 'set_config_option':
        return this.requireSession().setConfigOption(message.configId, message.value);
      case 'open_file':
        return this.host.editor.openFile(message.path, message.line);
      case 'open_url':
        return this.host.editor.openUrl(message.url);
      case 'authenticate':
        return this.authenticate(message.methodId);
      case 'restart_agent':
        return this.restart();
      case 'new_chat':
        return this.newChat();
      default: {
        const unknown: never = message;
        throw new Error(`Unhandled view message ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** The agents offered and the selected one (the first when none is chosen or it disappeared). */
  get agent(): AgentDefinition {
    const { agents } = this.host.agents();
    const wanted = this.selectedAgentId ?? this.host.defaultAgentId?.();
    return agents.find((agent) => agent.id === wanted) ?? (agents[0] as AgentDefinition);
  }

  get currentStatus(): AgentStatus {
    return this.status;
  }

  viewState(): ViewState {
    const { agents } = this.host.agents();
    return {
      agents: agents.map((agent) => ({
        id: agent.id,
        label: agent.label,
        ...(agent.description ? { description: agent.description } : {}),
      })),
      selectedAgentId: this.agent.id,
      status: this.status,
      chat: { chatId: this.chatId, thread: this.thread.snapshot() },
      ...(this.attachments.length > 0 ? { attachments: [...this.attachments] } : {}),
    };
  }

  /** Sends a prompt, starting the agent and a session first when needed. */
  async send(text: string): Promise<void> {
    await this.sendPrompt([{ type: 'text', text }]);
  }

  /** Puts a file on the view's composer, to go with the next message (kept until sent, across view reloads). */
  addAttachment(attachment: AttachmentRef): void {
    if (!this.attachments.some((a) => a.uri === attachment.uri)) {
      this.attachments.push(attachment);
      this.post({ type: 'add_attachment', attachment });
    }
  }

  /** Attached files go as embedded text (the agent sees what the user sees); unreadable ones as links. */
  private async attachmentBlocks(attachments: readonly AttachmentRef[]): Promise<PromptBlock[]> {
    return Promise.all(
      attachments.map(async (attachment): Promise<PromptBlock> => {
        const filePath = attachment.uri.startsWith('file:') ? fileURLToPath(attachment.uri) : attachment.uri;
        try {
          const text = await this.host.ports.fileSystem.readTextFile(filePath, {
            sessionId: this.session?.id ?? '',
          });
          return { type: 'resource', uri: pathToFileURL(filePath).href, text };
        } catch {
          return { type: 'resource_link', uri: attachment.uri, name: attachment.name };
        }
      }),
    );
  }

  /** Sends prompt blocks (text, selections, files), starting the agent and a session first when needed. */
  async sendPrompt(blocks: readonly PromptBlock[]): Promise<void> {
    if (this.thread.runningTurn) {
      throw new Error('A turn is already running; wait for it or press Stop.');
    }
    const session = await this.ensureSession();
    if (!session) {
      if (this.status.error?.kind === 'auth_required') {
        this.waitingForSignIn = blocks;
      }
      return;
    }
    await session.prompt(blocks);
  }

  private async ensureSession(): Promise<AgentSession | undefined> {
    const client = await this.ensureClient();
    if (!client) {
      return undefined;
    }
    if (this.session && this.client === client) {
      return this.session;
    }
    try {
      const session = await client.newSession({ cwd: this.host.cwd(), thread: this.thread });
      this.session?.dispose();
      this.session = session;
      this.setStatus({ state: 'ready', agentName: client.info.name });
      return session;
    } catch (error) {
      this.fail(error, client);
      return undefined;
    }
  }

  private ensureClient(): Promise<AgentClient | undefined> {
    if (this.client?.exitInfo === undefined && this.client) {
      return Promise.resolve(this.client);
    }
    this.starting ??= this.startClient().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async startClient(): Promise<AgentClient | undefined> {
    const agent = this.agent;
    this.session = undefined;
    if (this.host.trusted && !this.host.trusted()) {
      this.setStatus({
        state: 'error',
        agentName: agent.label,
        error: {
          kind: 'untrusted',
          message:
            'This workspace is not trusted, so no agent is started: an agent can read, write and run anything here. Trust the workspace to chat.',
        },
      });
      return undefined;
    }
    this.setStatus({ state: 'starting', agentName: agent.label });
    try {
      const env = { ...agent.env, ...(await this.host.signIn?.secretsFor(agent.id)) };
      const starting = AgentClient.start({
        agentId: agent.id,
        command: { command: agent.command, args: agent.args, env, cwd: this.host.cwd() },
        ports: this.host.ports,
        ...this.host.clientOptions,
      });
      const client = await (this.host.progress
        ? this.host.progress(`Starting ${agent.label}…`, starting)
        : starting);
      if (this.agent.id !== agent.id) {
        // The user picked another agent while this one was starting.
        await client.stop();
        return undefined;
      }
      this.client = client;
      this.clientAgentId = agent.id;
      client.onExit(() => {
        if (this.client === client) {
          this.session = undefined;
          const exit = client.exitInfo;
          this.fail(
            exit
              ? new AgentExitedError(exit, client.process.stderr.lastLines(20))
              : new Error('The agent stopped.'),
            client,
          );
        }
      });
      return client;
    } catch (error) {
      this.fail(error, undefined);
      return undefined;
    }
  }

  private fail(error: unknown, client: AgentClient | undefined): void {
    const failure: AgentError = classifyError(error);
    const authMethods = client?.info.authMethods.map((method) => ({
      id: method.id,
      name: method.name,
      ...(method.description ? { description: method.description } : {}),
    }));
    this.setStatus({
      state: 'error',
      agentName: client?.info.name ?? this.agent.label,
      error: {
        kind: failure.kind,
        message: failure.message,
        ...(failure instanceof AgentExitedError && failure.stderrTail.length > 0
          ? { stderrTail: [...failure.stderrTail] }
          : {}),
      },
      ...(failure.kind === 'auth_required' && authMethods ? { authMethods } : {}),
    });
  }

  private async authenticate(methodId: string): Promise<void> {
    const client = await this.ensureClient();
    if (!client) {
      return;
    }
    const outcome = await signIn(methodId, client, this.agent, this.host.signIn);
    if (outcome === 'dismissed') {
      return;
    }
    if (outcome === 'restart') {
      await this.stopClient();
    }
    const waiting = this.waitingForSignIn;
    this.waitingForSignIn = undefined;
    const session = await this.ensureSession();
    if (session && waiting !== undefined) {
      await session.prompt(waiting);
    }
  }

  async selectAgent(agentId: string): Promise<void> {
    if (!this.host.agents().agents.some((agent) => agent.id === agentId)) {
      throw new Error(`Unknown agent ${agentId}`);
    }
    if (agentId === this.agent.id && this.status.state !== 'error') {
      return;
    }
    await this.restartOn(agentId);
  }

  /** Stops the current agent and starts `agentId` with an empty transcript. */
  private async restartOn(agentId: string): Promise<void> {
    this.selectedAgentId = agentId;
    await this.stopClient();
    this.startNewThread();
    this.setStatus({ state: 'idle' });
    this.postSnapshot();
    await this.ensureSession();
  }

  /** The agent settings changed: if the selected agent is gone, move to the first one. */
  agentsChanged(): void {
    const { agents } = this.host.agents();
    if (this.clientAgentId !== undefined && !agents.some((agent) => agent.id === this.clientAgentId)) {
      this.selectedAgentId = undefined;
      void this.restartOn(this.agent.id).catch((error: unknown) => this.fail(error, undefined));
      return;
    }
    this.postSnapshot();
  }

  /** Restarts the agent; the transcript stays and continues in a new session. */
  async restart(): Promise<void> {
    await this.stopClient();
    this.setStatus({ state: 'idle' });
    await this.ensureSession();
  }

  /** Starts over with an empty transcript on the same agent. */
  async newChat(): Promise<void> {
    if (this.session) {
      await this.session.cancel();
      this.session.dispose();
      this.session = undefined;
    }
    this.startNewThread();
    this.postSnapshot();
    await this.ensureSession();
  }

  async cancel(): Promise<void> {
    await this.session?.cancel();
  }

  private async stopClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.clientAgentId = undefined;
    this.session = undefined;
    await client?.stop();
  }

  private requireSession(): AgentSession {
    if (!this.session) {
      throw new Error('No session yet: the agent is not connected.');
    }
    return this.session;
  }

  private newThread(): Thread {
    this.chatId = `chat-${++this.chatNumber}`;
    const thread = new Thread(this.host.clientOptions?.threadLimits);
    this.threadSubscription?.dispose();
    this.threadSubscription = thread.onEvent((event) => this.onThreadEvent(event));
    return thread;
  }

  private startNewThread(): void {
    this.thread.dispose();
    this.thread = this.newThread();
    this.batcher.clear();
  }

  private onThreadEvent(event: ThreadEvent): void {
    this.batcher.push(event);
    // A turn's start and end are what the composer waits for: do not hold them back.
    if (event.type === 'turn_started' || event.type === 'turn_ended') {
      this.batcher.flush();
      this.workingEmitter.fire(event.type === 'turn_started');
    }
  }

  private postEvents(events: ThreadEvent[]): void {
    this.post({ type: 'thread_events', chatId: this.chatId, events });
  }

  private postSnapshot(): void {
    this.batcher.clear();
    this.post({ type: 'snapshot', view: this.viewState() });
  }

  private setStatus(status: AgentStatus): void {
    this.status = status;
    this.batcher.flush();
    this.post({ type: 'agent_status', status });
    this.statusEmitter.fire(status);
  }

  private post(message: Parameters<ViewSink['post']>[0]): void {
    if (this.sink && this.ready) {
      this.sink.post(message);
    }
  }

  dispose(): void {
    this.batcher.dispose();
    this.terminals.dispose();
    this.threadSubscription?.dispose();
    this.statusEmitter.dispose();
    this.workingEmitter.dispose();
    void this.stopClient();
  }
}
