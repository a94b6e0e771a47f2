import { ElicitationBroker } from '../../../src/features/elicitation/core/elicitationBroker';
import { compileAgentPattern } from '../../../src/features/elicitation/core/agentPattern';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { ownedPerTest } from '../../support/ownedPerTest';
import type { Retention } from '../../../src/core/journal/journal';
import { NodeFileSystem } from '../../../src/core/node/nodeFileSystem';
import type { FileSystemPort } from '../../../src/core/ports';
import { NodeTerminals } from '../../../src/features/terminals/core/nodeTerminals';
import { PolicyPermissions } from '../../../src/features/permissions/core/policyPermissions';
import {
  HostMessageSchema,
  type AttachmentRef,
  type ChatSummary,
  type HostMessage,
  type ThreadEventMessage,
} from '../../../src/protocol';
import type { AgentDefinition } from '../../../src/chat/agentSettings';
import type { ChangeReview } from '../../../src/features/checkpoints/chat/changeReview';
import { ChatController } from '../../../src/chat/chatController';
import type { ChatContributionFactory } from '../../../src/chat/chatContribution';
import type { ProbeSessions } from '../../../src/chat/probeSessions';
import { agentSessionsContribution } from '../../../src/features/agentSessions/chat/agentSessionsContribution';
import {
  checkpointsContribution,
  restoreBeforeMessage,
} from '../../../src/features/checkpoints/chat/checkpointsContribution';
import { currentFileContribution } from '../../../src/features/currentFile/chat/currentFileContribution';
import { elicitationContribution } from '../../../src/features/elicitation/chat/elicitationContribution';
import { HunkReview } from '../../../src/features/hunkReview/chat/hunkReview';
import { hunkReviewContribution } from '../../../src/features/hunkReview/chat/hunkReviewContribution';
import { CollectedNotes } from '../../../src/features/hunkReview/chat/collectedNotes';
import { forksContribution } from '../../../src/features/forks/chat/forksContribution';
import { mentionsContribution } from '../../../src/features/mentions/chat/mentionsContribution';
import { problemsContribution } from '../../../src/features/problems/chat/problemsContribution';
import { terminalsContribution } from '../../../src/features/terminals/chat/terminalsContribution';
import type { DiagnosticsPort } from '../../../src/features/problems/chat/problemsOffer';
import type { MentionSource } from '../../../src/features/mentions/chat/mentionSource';
import type { CurrentFileSource } from '../../../src/features/currentFile/chat/currentFileSource';
import { RecordingLogger, TEST_AGENT_JS } from './testAgent';
import { ChatStore } from '../../../webview/store';
import { appliedToStore } from '../../../webview/storeMessages';
import { AgentClient } from '../../../src/core/connection/agentClient';
import type { RequestDeadlines } from '../../../src/core/connection/deadlines';
import type { Clock } from '../../../src/core/util/clock';

export function testAgent(id: string, env: Record<string, string> = {}): AgentDefinition {
  return { id, label: `Test ${id}`, command: process.execPath, args: [TEST_AGENT_JS], env };
}

/**
 * The chat list a page holds after each message of `messages` that sets it (a snapshot, the whole list, or one
 * chat's change), in order, starting from `before`: each message applied to the page's own store as the page
 * applies it (`ChatStore.applySnapshot`, `appliedToStore`).
 */
export function chatListsOf(
  messages: readonly HostMessage[],
  before: readonly ChatSummary[] = [],
): ChatSummary[][] {
  const store = new ChatStore();
  store.setChats(before);
  const lists: ChatSummary[][] = [];
  for (const message of messages) {
    if (message.type === 'snapshot') {
      store.applySnapshot(message.view);
    } else if (message.type === 'chats' || message.type === 'chat_changed') {
      appliedToStore(store, message);
    } else {
      continue;
    }
    lists.push([...store.chats]);
  }
  return lists;
}

/** A webview stand-in: records what the controller posts, checking each message against the schema. */
export class RecordingView {
  readonly messages: HostMessage[] = [];
  post(message: HostMessage): void {
    HostMessageSchema.parse(message);
    this.messages.push(message);
  }
  of<T extends HostMessage['type']>(type: T): Extract<HostMessage, { type: T }>[] {
    return this.messages.filter((m): m is Extract<HostMessage, { type: T }> => m.type === type);
  }
  events(): ThreadEventMessage[] {
    return this.of('thread_events').flatMap((m) => m.events);
  }
  /** The chat list the page holds after each message that changed it (see `chatListsOf`). */
  chatLists(): ChatSummary[][] {
    return chatListsOf(this.messages);
  }
  /** Whether the view was shown a tool card that waits for the user's permission. */
  askedPermission(): boolean {
    return this.events().some(
      (e) =>
        e.type === 'entry_updated' &&
        e.entry.kind === 'tool_call' &&
        e.entry.permission?.status === 'pending',
    );
  }
  /** The notices the chat's view was sent, in order. */
  notices(): Extract<ThreadEventMessage, { type: 'notice' }>['notice'][] {
    return this.events().flatMap((event) => (event.type === 'notice' ? [event.notice] : []));
  }
}

/** Polls until `predicate` holds (bounded), for state that settles through several async hops. */
export { until } from '../../support/until';

export interface HarnessOptions {
  readonly agents: AgentDefinition[];
  /**
   * Reuse a storage folder: a second controller on it is VS Code after a restart. The harness takes it
   * over: disposed, it removes the folder (after its writers stopped) unless asked to keep it.
   */
  readonly storageDir?: string;
  /** Reuse a workspace folder (a restart that keeps it: `restarted(…, { keepDir: true })`). */
  readonly dir?: string;
  readonly retention?: Retention;
  /** False: an untrusted workspace. */
  readonly trusted?: boolean;
  /** Checkpoints and change cards for the harness's workspace folder (`dir`). */
  readonly changes?: (dir: string, storageDir: string) => ChangeReview;
  /** The editor's Problems for the chat's workspace folder (`dir`). */
  readonly diagnostics?: (dir: string) => DiagnosticsPort;
  /** The @-mention picker's editor entries (VS Code's in the real extension). */
  readonly mentions?: MentionSource;
  /** The editor's file dialog (the paperclip): what the user picks. */
  readonly pickFiles?: () => Promise<AttachmentRef[]>;
  /** The active editor's file offered on the composer (VS Code's in the real extension). */
  readonly currentFile?: CurrentFileSource;
  /** Characters a message keeps (the `acpAgents.chat.maxMessageCharacters` setting). */
  readonly maxMessageChars?: number;
  /** Every protocol message written to `logger` at trace level (to check what was sent). */
  readonly traceProtocol?: boolean;
  /** A multi-root workspace: every folder, in order (made from `dir`; the first is the default cwd). */
  readonly folders?: (dir: string) => string[];
  /** The folder agents run in when a chat has none of its own (default: the harness's temp folder). */
  readonly cwd?: () => string;
  /** The active editor's workspace folder (multi-root): where a new chat starts. */
  readonly activeFolder?: () => string | undefined;
  /** Whether a chat is on the user's screen (default: a view shows it). */
  readonly chatOnScreen?: (chatId: string) => boolean;
  /** More contributions, after the product's (a feature under test). */
  readonly moreContributions?: (harness: ChatHarness) => ChatContributionFactory[];
  /** The port the agents' file requests go to (default: the disk, unconfined). */
  readonly fileSystem?: (harness: ChatHarness) => FileSystemPort;
  /** The clock the agents' request deadlines run on (a test moves it by hand). */
  readonly clock?: Clock;
  /** The agents' request deadlines (the defaults for what is not given). */
  readonly deadlines?: Partial<RequestDeadlines>;
  /** The sessions the agent check opened (the chat list leaves them out). */
  readonly probeSessions?: ProbeSessions;
}

/** A chat controller over real agent processes, temp folders and a recording view. */
export class ChatHarness {
  readonly dir: string;
  private disposed = false;
  private keepDir = false;
  /** Documents "Open the whole message" opened. */
  readonly readOnlyDocuments: { title: string; text: string }[] = [];
  readonly storageDir: string;
  readonly logger = new RecordingLogger();
  readonly terminals: NodeTerminals;
  /** The permission port: records every request the agents make (none is answered by policy). */
  readonly permissions = new PolicyPermissions(() => undefined);
  /** The agents' questions, as in the product (`ports.elicitation` and the chat's relay). */
  readonly elicitations = new ElicitationBroker(this.logger, compileAgentPattern);
  /** The tool cards' "Open in terminal" as the editor got them: the terminal and the view's chat's session. */
  readonly shownTerminals: { terminalId: string; sessionId: string | undefined }[] = [];
  /** URLs the chat opened (the editor's `openUrl`). */
  readonly openedUrls: string[] = [];
  readonly controller: ChatController;
  readonly changes: ChangeReview | undefined;
  /** The hunks of the latest turn's changes (with `changes`), as the editor shows them. */
  readonly hunks: HunkReview | undefined;
  /** The "Ask for a change…" notes on the composers. */
  readonly notes = new CollectedNotes();
  view = new RecordingView();
  /** How often the view asked for the agent doctor (the "Check agents" button). */
  checkAgentsRuns = 0;
  /** How often the view asked for the agent log (a failure card's "Show Agent Log"). */
  showLogRuns = 0;
  manageTrustRuns = 0;

  constructor(options: HarnessOptions) {
    this.dir = options.dir ?? mkdtempSync(path.join(os.tmpdir(), 'acp-chat-'));
    this.terminals = new NodeTerminals(this.dir);
    this.storageDir = options.storageDir ?? mkdtempSync(path.join(os.tmpdir(), 'acp-storage-'));
    this.changes = options.changes?.(this.dir, this.storageDir);
    this.hunks = this.changes && new HunkReview(this.changes, readIfThere);
    const folders = options.folders?.(this.dir);
    this.controller = new ChatController({
      agents: () => ({ agents: options.agents, errors: [] }),
      cwd: options.cwd ?? (() => this.dir),
      startClient: (clientOptions) => AgentClient.start(clientOptions),
      ports: {
        fileSystem: options.fileSystem?.(this) ?? new NodeFileSystem(),
        permissions: this.permissions,
        terminals: this.terminals,
        elicitation: this.elicitations,
        logger: this.logger,
      },
      contributions: this.contributions(options),
      editor: {
        openFile: async () => {},
        openUrl: async (url) => {
          this.openedUrls.push(url);
        },
        manageTrust: async () => {
          this.manageTrustRuns++;
        },
        checkAgents: async () => {
          this.checkAgentsRuns++;
        },
        showLog: async () => {
          this.showLogRuns++;
        },
        ...(options.pickFiles ? { pickFiles: options.pickFiles } : {}),
        showTerminal: async (terminalId, sessionId) => {
          this.shownTerminals.push({ terminalId, sessionId });
        },
        openReadOnly: async (title, text) => {
          this.readOnlyDocuments.push({ title, text });
        },
      },
      clientOptions: {
        ...(options.maxMessageChars ? { threadLimits: { maxMessageChars: options.maxMessageChars } } : {}),
        ...(options.traceProtocol ? { traceProtocol: true } : {}),
        ...(options.clock ? { clock: options.clock } : {}),
        ...(options.deadlines ? { deadlines: options.deadlines } : {}),
      },
      storageDir: this.storageDir,
      ...(options.retention ? { retention: () => options.retention as Retention } : {}),
      ...(options.trusted === undefined ? {} : { trusted: () => options.trusted as boolean }),
      ...(folders ? { additionalDirectories: () => folders, workspaceFolders: () => folders } : {}),
      ...(options.activeFolder ? { activeFolder: options.activeFolder } : {}),
      ...(options.chatOnScreen ? { chatOnScreen: options.chatOnScreen } : {}),
    });
    this.controller.attachView(this.view);
  }

  /** The product's features (src/chatFeatures.ts), in its order, each where the options give what it needs. */
  private contributions(options: HarnessOptions): ChatContributionFactory[] {
    const changes = this.changes;
    return [
      ...(changes ? [checkpointsContribution(changes)] : []),
      ...(options.diagnostics ? [problemsContribution(options.diagnostics(this.dir))] : []),
      elicitationContribution(this.elicitations),
      terminalsContribution(this.terminals),
      mentionsContribution(options.mentions),
      ...(options.currentFile ? [currentFileContribution(options.currentFile)] : []),
      agentSessionsContribution(
        options.probeSessions &&
          ((agentId, sessionId) => options.probeSessions?.has(agentId, sessionId) === true),
      ),
      forksContribution(changes && ((thread, entryId) => restoreBeforeMessage(changes, thread, entryId))),
      ...(this.hunks ? [hunkReviewContribution(this.hunks, readIfThere, this.notes)] : []),
      ...(options.moreContributions?.(this) ?? []),
    ];
  }

  /** The view says ready; resolves once the active chat is connected (or failed to). */
  async ready(): Promise<void> {
    await this.controller.handleMessage({ type: 'ready' });
    await this.controller.connectActive();
  }

  send(text: string): Promise<void> {
    return this.controller.handleMessage({ type: 'send', text });
  }

  /** The active chat's transcript as `kind:text` pieces. */
  transcript(): string {
    const entries = this.controller.viewState().chat?.thread.entries ?? [];
    return entries.map((e) => ('text' in e ? `${e.kind}:${e.text}` : `${e.kind}:${e.title}`)).join('|');
  }

  /** VS Code after a restart: ends this chat keeping its storage, and returns a new harness on that storage. */
  async restarted(
    options: Omit<HarnessOptions, 'storageDir' | 'dir'>,
    restart: { keepDir?: boolean } = {},
  ): Promise<ChatHarness> {
    this.keepDir = restart.keepDir === true;
    await this.dispose({ keepStorage: true });
    return new ChatHarness({
      ...options,
      storageDir: this.storageDir,
      ...(restart.keepDir ? { dir: this.dir } : {}),
    });
  }

  /** Ends the chat; again (a test's own dispose, then its afterEach) it does nothing. */
  async dispose(options: { keepStorage?: boolean } = {}): Promise<void> {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    await this.controller.shutdown();
    this.controller.dispose();
    this.elicitations.dispose();
    this.changes?.dispose();
    await this.changes?.idle();
    this.hunks?.dispose();
    this.notes.dispose();
    await this.terminals.dispose();
    if (!this.keepDir) {
      rmSync(this.dir, { recursive: true, force: true });
    }
    if (!options.keepStorage) {
      rmSync(this.storageDir, { recursive: true, force: true });
    }
  }
}

/**
 * Per test: `readyChat(options)` starts a chat harness, waits until its agent is ready, and disposes it
 * after the test (the last started first), so a test that fails half-way leaves nothing running.
 */
export function useReadyChats(): (options: HarnessOptions) => Promise<ChatHarness> {
  const owned = ownedPerTest();
  return async (options) => {
    const chat = owned(new ChatHarness(options));
    await chat.ready();
    return chat;
  };
}

/** A file's bytes on disk, undefined when it is not there (the unit tests' "editor" has no unsaved text). */
async function readIfThere(file: string): Promise<Uint8Array | undefined> {
  return readFile(file).catch(() => undefined);
}
