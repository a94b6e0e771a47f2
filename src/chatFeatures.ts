/**
 * The chat's features, composed (part of the chat's composition root, src/chatHost.ts): each builder makes
 * one feature's VS Code side, its contribution to the chat (src/chat/chatContribution.ts) and what the
 * extension's test hooks expose of it. Adding a feature adds a builder here and one line in `chatFeatures`;
 * the base never names a feature. Wiring two features together (edit and resend restoring the files with
 * the checkpoints) happens here, never inside a feature.
 */
import type { ChatContributionFactory } from './chat/chatContribution';
import { ProbeSessions } from './chat/probeSessions';
import { agentSessionsContribution } from './features/agentSessions/chat/agentSessionsContribution';
import { ChangeReview } from './features/checkpoints/chat/changeReview';
import {
  checkpointsContribution,
  restoreBeforeMessage,
} from './features/checkpoints/chat/checkpointsContribution';
import { WorkspaceService, type WorkspaceHost } from './features/checkpoints/chat/workspaceService';
import type * as CheckpointsCore from './features/checkpoints/core';
import { VsCodeWorkspaceChanges } from './features/checkpoints/vscode/vscodeWorkspaceChanges';
import { vscodeWorkspaceHost } from './features/checkpoints/vscode/vscodeWorkspaceHost';
import { currentFileContribution } from './features/currentFile/chat/currentFileContribution';
import { ActiveEditorFile } from './features/currentFile/vscode/activeEditorFile';
import { editReviewContribution } from './features/editReview/chat/editReviewContribution';
import { VscodeEditReviews } from './features/editReview/vscode/vscodeEditReviews';
import { writeReview } from './features/editReview/vscode/writeReview';
import { HunkReview } from './features/hunkReview/chat/hunkReview';
import { hunkReviewContribution } from './features/hunkReview/chat/hunkReviewContribution';
import { ProposedWriteHunks } from './features/hunkReview/chat/proposedWrites';
import { CollectedNotes } from './features/hunkReview/chat/collectedNotes';
import { NoteThreads } from './features/hunkReview/vscode/noteThreads';
import { EditorHunks } from './features/hunkReview/vscode/editorHunks';
import { registerHunkCommands, type HunkOverlay } from './features/hunkReview/vscode/hunkCommands';
import { ElicitationBroker } from './features/elicitation/core/elicitationBroker';
import type * as Patterns from './features/elicitation/core/agentPattern';
import { elicitationContribution } from './features/elicitation/chat/elicitationContribution';
import { ElicitationNotice } from './features/elicitation/vscode/elicitationNotice';
import { forksContribution } from './features/forks/chat/forksContribution';
import type { MentionSource } from './features/mentions/chat/mentionSource';
import { mentionsContribution } from './features/mentions/chat/mentionsContribution';
import type * as Mentions from './features/mentions/vscode';
import { PermissionRules } from './features/permissions/core/permissionRules';
import { VsCodePermissions } from './features/permissions/vscode/permissionPrompt';
import {
  permissionSettings,
  permissionSurface,
  workspaceRuleStore,
} from './features/permissions/vscode/permissionSettings';
import { problemsContribution } from './features/problems/chat/problemsContribution';
import { VsCodeDiagnostics } from './features/problems/vscode/vscodeDiagnostics';
import { terminalsContribution } from './features/terminals/chat/terminalsContribution';
import { VsCodeTerminals } from './features/terminals/vscode/vscodeTerminals';
import { worktreesFeature, type WorktreesFeature } from './features/worktrees/vscode';
import type { ChatViewRefs } from './vscode/chatOnScreen';
import { chatOnScreen, openChat, revealChat } from './vscode/chatOnScreen';
import { OnFirstUse } from './vscode/lazyBundles';
import type { WriteReview } from './vscode/workspaceFileSystem';
import type { ChatBase } from './chatBase';

/** What the features give the chat: the contributions, the ports the agents' requests use, the test hooks. */
export interface ChatFeatures {
  readonly contributions: ChatContributionFactory[];
  readonly terminals: VsCodeTerminals;
  readonly permissions: VsCodePermissions;
  readonly elicitations: ElicitationBroker;
  /** The review of each agent write (the workspace file system's write hook). */
  readonly writeReview: WriteReview;
  /** The sessions the agent check opened: the chat list leaves them out. */
  readonly probeSessions: ProbeSessions;
  readonly hooks: FeatureHooks;
}

/** The features' parts the integration tests reach (the extension's test API). */
export interface FeatureHooks {
  /** File writes waiting for Keep or Undo in the diff editor. */
  readonly writeReviews: VscodeEditReviews;
  readonly terminals: VsCodeTerminals;
  readonly rules: PermissionRules;
  /** The @-mention picker's workspace entries. */
  readonly mentions: MentionSource;
  /** The turns' change cards and the workspace service that says where and when checkpoints may be taken. */
  readonly checkpoints: {
    readonly changes: ChangeReview;
    readonly workspace: WorkspaceService<CheckpointsCore.CheckpointStore>;
  };
  /** The latest turn's hunks in the editor. */
  readonly hunks: {
    readonly review: HunkReview;
    readonly proposed: ProposedWriteHunks;
    readonly editors: EditorHunks;
    /** The "Ask for a change…" notes on the composers, and their comment threads. */
    readonly notes: CollectedNotes;
    readonly noteThreads: NoteThreads;
    /** What the status bar and the announcements say while stepping through the changes. */
    readonly overlay: HunkOverlay;
  };
}

/** Builds every feature, in the order their contributions are called. */
export function chatFeatures(base: ChatBase, viewRef: ChatViewRefs): ChatFeatures {
  const writeReviews = base.own(new VscodeEditReviews(base.prompts));
  // A command the agent gives no folder runs in its chat's own place (a worktree), else the first folder.
  const terminals = base.own(
    new VsCodeTerminals((sessionId) => viewRef.chat?.placeOfSession(sessionId)?.cwd ?? base.cwd()),
  );
  const { rules, permissions } = permissionsFeature(base, viewRef, writeReviews);
  const elicitations = elicitationFeature(base, viewRef);
  const diagnostics = new VsCodeDiagnostics();
  const worktrees = base.own(
    worktreesFeature({
      context: base.context,
      prompts: base.prompts,
      logger: base.logger,
      newChat: async () => {
        await viewRef.current?.reveal();
        await viewRef.chat?.newChat();
      },
      openChat: (chatId) => openChat(viewRef, chatId),
      agents: () =>
        (viewRef.chat?.agentsOffered ?? []).map((agent) => ({ id: agent.id, label: agent.label })),
      diagnostics,
    }),
  );
  const { current, ...checkpoints } = checkpointsFeature(base, worktrees);
  const hunks = hunkReviewFeature(base, viewRef, {
    changes: checkpoints.changes,
    writes: writeReviews,
    current,
  });
  const mentions = mentionsFeature(base);
  const probeSessions = new ProbeSessions(base.context.globalState);
  return {
    contributions: [
      checkpointsContribution(checkpoints.changes),
      editReviewContribution(writeReviews),
      problemsContribution(diagnostics),
      elicitationContribution(elicitations),
      terminalsContribution(terminals),
      mentionsContribution(mentions),
      currentFileContribution(base.own(new ActiveEditorFile())),
      agentSessionsContribution((agentId, sessionId) => probeSessions.has(agentId, sessionId)),
      forksContribution((thread, entryId) => restoreBeforeMessage(checkpoints.changes, thread, entryId)),
      worktrees.contribution,
      hunkReviewContribution(hunks.review, current, hunks.notes),
    ],
    terminals,
    permissions,
    elicitations,
    writeReview: writeReview(writeReviews, base.logger),
    probeSessions,
    hooks: { writeReviews, terminals, rules, mentions, checkpoints, hunks },
  };
}

/** Permission requests: remembered rules, asked inline when the chat is on screen, else in a dialog. */
function permissionsFeature(
  base: ChatBase,
  viewRef: ChatViewRefs,
  writeReviews: VscodeEditReviews,
): { rules: PermissionRules; permissions: VsCodePermissions } {
  const rules = new PermissionRules(permissionSettings, workspaceRuleStore(base.context.workspaceState));
  const permissions = new VsCodePermissions(
    rules,
    base.prompts,
    {
      chatVisible: ({ sessionId }) => chatOnScreen(viewRef, sessionId),
      revealChat: ({ sessionId }) => revealChat(viewRef, sessionId),
      where: permissionSurface,
      showDiff: (path, oldText, newText) => writeReviews.preview(path, oldText, newText),
    },
    base.logger,
  );
  return { rules, permissions };
}

/** The agents' questions (elicitation): answered in the chat; a hidden chat is announced and revealed. */
function elicitationFeature(base: ChatBase, viewRef: ChatViewRefs): ElicitationBroker {
  // RE2 for the agents' form patterns: its bundle loads with the first form that has one.
  const elicitations = new ElicitationBroker(base.logger, (pattern) =>
    base.bundle<typeof Patterns>('patterns').compileAgentPattern(pattern),
  );
  const notice = new ElicitationNotice(
    elicitations,
    base.prompts,
    {
      chatVisible: ({ sessionId }) => sessionId === undefined || chatOnScreen(viewRef, sessionId),
      reveal: async ({ sessionId }) => {
        const chatId = sessionId === undefined ? undefined : viewRef.chat?.chatOfSession(sessionId);
        if (chatId !== undefined && chatId !== viewRef.chat?.windowChatId) {
          await viewRef.chat?.switchChat(chatId);
        }
        await viewRef.current?.reveal();
      },
    },
    base.logger,
  );
  // The notice goes before the broker it listens to.
  base.own(elicitations);
  base.own(notice);
  return elicitations;
}

/**
 * Checkpoints: the workspace service says which folders (trusted, live, never the home folder) and where
 * (the extension's storage, never inside a workspace folder, under its cap); the store is a bundle of its
 * own, opened with the first checkpoint. The chats' worktrees are checkpointed like workspace folders, so
 * a worktree chat's change card, Undo and Restore work inside its worktree.
 */
function checkpointsFeature(
  base: ChatBase,
  worktrees: WorktreesFeature,
): FeatureHooks['checkpoints'] & { current: (path: string) => Promise<Uint8Array | undefined> } {
  const workspaceChanges = base.own(
    new VsCodeWorkspaceChanges(
      (id, file): Promise<Uint8Array | undefined> => changes.read(id, file),
      base.prompts,
    ),
  );
  const workspace = base.own(
    new WorkspaceService(
      withWorktrees(
        vscodeWorkspaceHost(base.context, (message) => workspaceChanges.inform(message)),
        worktrees,
      ),
      ({ folders, storageDir }) =>
        base
          .bundle<typeof CheckpointsCore>('checkpoints')
          .createCheckpointStore({ folders, storageDir, logger: base.logger }),
      base.logger,
      { storeSubdir: 'checkpoints' },
    ),
  );
  const changes = base.own(new ChangeReview(workspace, workspaceChanges, base.logger));
  return { changes, workspace, current: (path) => workspaceChanges.current(path) };
}

/**
 * The latest turn's hunks in the editor, kept and undone through the checkpoints' change review (its Undo's
 * rules and writer); "Ask for a change…" notes go on the window's chat composer.
 */
function hunkReviewFeature(
  base: ChatBase,
  viewRef: ChatViewRefs,
  from: {
    readonly changes: ChangeReview;
    /** The edit review: its writes waiting are decorated, and decided one hunk at a time. */
    readonly writes: VscodeEditReviews;
    readonly current: (path: string) => Promise<Uint8Array | undefined>;
  },
): FeatureHooks['hunks'] {
  const review = base.own(new HunkReview(from.changes, from.current));
  const proposed = base.own(
    new ProposedWriteHunks({
      writes: () => from.writes.proposedWrites(),
      onDidChange: (listener) => from.writes.onDidChange(() => listener()),
      settle: (id, decision) => from.writes.answer(id, decision),
    }),
  );
  const editors = base.own(new EditorHunks(review, proposed));
  const notes = base.own(new CollectedNotes());
  const noteThreads = base.own(new NoteThreads(notes));
  const commands = registerHunkCommands({
    review,
    proposed,
    editors,
    attach: (attachment) => {
      viewRef.chat?.addAttachment(attachment);
      void viewRef.current?.reveal();
    },
    openDiff: (path) => review.openDiff(path),
    prompts: base.prompts,
  });
  for (const registration of commands.registrations) {
    base.own(registration);
  }
  return { review, proposed, editors, notes, noteThreads, overlay: commands.overlay };
}

/** The @-mention picker's workspace entries: the index is a bundle of its own, built with the first query. */
function mentionsFeature(base: ChatBase): MentionSource {
  const index = base.own(
    new OnFirstUse(() => new (base.bundle<typeof Mentions>('mentions').VsCodeMentionSource)()),
  );
  return {
    query: (query, limit) => index.get().query(query, limit),
    problems: (uri) => index.get().problems(uri),
  };
}

/** The workspace as the checkpoints see it: its folders and the chats' worktrees. */
function withWorktrees(host: WorkspaceHost, worktrees: WorktreesFeature): WorkspaceHost {
  return {
    ...host,
    folders: () => [...host.folders(), ...worktrees.folders()],
    onDidChangeFolders: (listener) => {
      const folders = host.onDidChangeFolders(listener);
      const made = worktrees.worktrees.onDidChange(listener);
      return { dispose: () => (folders.dispose(), made.dispose()) };
    },
  };
}
