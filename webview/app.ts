import { HostMessageSchema, type HostMessage, type ViewMessage } from '../src/protocol';
import { handleContentClicks } from './clicks';
import { Alerts } from './render/alerts';
import { Announcer } from './render/announcer';
import { Composer } from './render/composer';
import type { ComposerState } from './render/composerContract';
import { acceptDrops } from './render/droppedItems';
import { signalComposing } from './composingSignal';
import { el } from './render/dom';
import { EditReviewsView } from './render/editReview/editReviews';
import { ElicitationView } from './render/elicitation/elicitationView';
import { EditStrip } from './render/forks/editStrip';
import { FocusKeeper } from './render/focusKeeper';
import { Header } from './render/header';
import { PendingMessage } from './render/pendingMessage';
import { PlanView } from './render/plan';
import { ProblemsOfferView } from './render/problems/problemsOffer';
import { WorktreeBar } from './render/worktrees/worktreeBar';
import { SaveBanner } from './render/saveBanner';
import { StatusBanner } from './render/statusBanner';
import { Transcript } from './render/transcript';
import type { RenderContext } from './render/types';
import { FrameScheduler } from './scheduler';
import { ChatStore } from './store';
import { appliedToStore } from './storeMessages';
import type { HostBridge } from './vscodeApi';

const DEMO_AGENT_ID = 'demo';

/**
 * The chat view: parses what the host sends, applies it to the store at once, and renders the
 * accumulated changes once per animation frame.
 */
export class ChatApp {
  private readonly store = new ChatStore();
  private readonly scheduler = new FrameScheduler(() => this.render());
  private readonly header: Header;
  private readonly banner: StatusBanner;
  private readonly saving = new SaveBanner();
  private readonly transcript: Transcript;
  private readonly alerts = new Alerts();
  private readonly plan = new PlanView();
  private readonly pending = new PendingMessage();
  private readonly reviews: EditReviewsView;
  private readonly problems: ProblemsOfferView;
  private readonly worktree: WorktreeBar;
  private readonly elicitations: ElicitationView;
  private readonly composer: Composer;
  private readonly edit = new EditStrip(() => this.composer.focus());
  private readonly announcer = new Announcer();
  private readonly focus: FocusKeeper;
  private headerDirty = true;
  /** What the composer was last given (see render). */
  private composerShown: ComposerState | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly bridge: HostBridge,
  ) {
    const post = (message: ViewMessage): boolean => this.bridge.post(message);
    const context: RenderContext = {
      post,
      requestFocus: (element) => this.focus.request(element),
      terminal: (terminalId) => this.store.terminal(terminalId),
      authMethods: () => this.store.status.authMethods ?? [],
      paths: () => this.store.workspacePaths,
      editMessage: (entry) => this.editMessage(entry.id, entry.text, entry.turnId),
    };
    this.header = new Header(post, () => this.composer.focus());
    this.reviews = new EditReviewsView(post, () => this.store.workspacePaths);
    this.problems = new ProblemsOfferView(post);
    this.worktree = new WorktreeBar(post);
    this.elicitations = new ElicitationView(post, context.requestFocus, (text) =>
      this.announcer.announce(text),
    );
    this.banner = new StatusBanner(context, () => this.retryFromCard());
    this.transcript = new Transcript(context);
    this.composer = new Composer({
      // While an earlier message is edited, the composer's send forks the chat there (edit_resend).
      post: (message) => post(this.edit.intercept(message)),
      get draft() {
        return bridge.draft;
      },
      set draft(text: string) {
        bridge.draft = text;
      },
      get queue() {
        return bridge.queue;
      },
      set queue(messages) {
        bridge.queue = messages;
      },
      onSent: () => {
        this.scheduler.request(); // the message shows pending at once
        // After the render's frame callback (requested first), which shows the message and follows it.
        this.transcript.scrollToEndSoon();
      },
      report: (message, severity) => this.alerts.show(message, severity),
      setAttachments: (attachments) => {
        this.store.setAttachments(attachments);
        this.scheduler.request();
      },
    });
    const footer = el(
      'div',
      'chat-footer',
      this.alerts.element,
      this.elicitations.element,
      this.reviews.element,
      this.problems.element,
      this.plan.element,
      this.edit.element,
      this.composer.element,
    );
    root.classList.add('chat');
    const banners = el('div', 'banners', this.banner.element, this.saving.element);
    root.replaceChildren(
      this.header.element,
      this.worktree.element,
      banners,
      this.transcript.element,
      footer,
      this.announcer.element,
    );
    this.focus = new FocusKeeper(root, this.transcript.element, this.composer);
    handleContentClicks(root, post);
    acceptDrops(root, (transfer) => this.takeDrop(transfer));
    signalComposing(this.composer.input, this.store, post);
    this.scheduler.request();
  }

  /** The page got the focus (the view focused, the user came back): see `FocusKeeper.pageFocused`. */
  pageFocused(): void {
    this.focus.pageFocused();
  }

  /** Handles one host message; anything that is not a valid HostMessage is reported. */
  receive(data: unknown): void {
    const parsed = HostMessageSchema.safeParse(data);
    if (!parsed.success) {
      console.warn('ACP chat: ignored an invalid message from the extension', data, parsed.error.issues);
      this.alerts.show(
        'Ignored an invalid message from the extension (see the developer tools console).',
        'warning',
      );
      return;
    }
    this.apply(parsed.data);
    this.scheduler.request();
  }

  private apply(message: HostMessage): void {
    if (appliedToStore(this.store, message)) {
      return;
    }
    switch (message.type) {
      case 'snapshot':
        this.applySnapshot(message);
        return;
      case 'thread_events':
        this.applyThreadEvents(message);
        return;
      case 'agent_status':
        this.applyAgentStatus(message);
        return;
      case 'elicitation_problems':
        if (message.chatId === this.store.chatId) {
          this.elicitations.showProblems(message.key, message.problems);
        }
        return;
      case 'mention_results':
        this.composer.mentionResults(message.requestId, message.items);
        return;
      case 'agent_sessions':
        this.header.agentSessions(message.groups);
        return;
      case 'send_cancelled':
        // The user cancelled a step before the send (an edit's restore): the edit stays as it was.
        this.composer.sendFailed();
        this.edit.resume();
        return;
      case 'show_chat_list':
        this.header.toggleChatList();
        return;
      case 'focus_handoff':
        this.focus.handOff(message.step);
        return;
      case 'error':
        this.alerts.show(message.message, 'error', message.details);
        this.composer.sendFailed();
        this.edit.resume();
        this.transcript.unlockPermissions();
        this.transcript.unlockChanges();
        return;
      default: {
        const never: never = message;
        console.warn('ACP chat: unhandled message', never);
      }
    }
  }

  /** A whole chat: when it is another chat than shown, the edit stops and its draft comes back. */
  private applySnapshot(message: Extract<HostMessage, { type: 'snapshot' }>): void {
    // Before a reload the view may have shown another chat: its draft is what the box holds.
    const shownBefore = this.store.chatId ?? this.bridge.shownChatId;
    const otherChat = message.view.chat?.chatId !== this.store.chatId;
    // A send waiting for its turn stays pending through a snapshot of its own chat (the first one, a
    // settings change): only the host's answer — the turn, or a failure — settles it.
    const switched = otherChat && this.store.chatId !== undefined;
    if (otherChat) {
      this.composer.holdQueue();
      this.edit.stop();
    }
    this.store.applySnapshot(message.view);
    if (message.view.chat) {
      this.bridge.shownChatId = message.view.chat.chatId;
      // Which chat the page shows, for tests that must know a switch has landed before typing.
      document.body.dataset.chatId = message.view.chat.chatId;
    }
    if (otherChat && message.view.chat) {
      this.composer.loadDraft(shownBefore === undefined || shownBefore === message.view.chat.chatId);
    }
    this.headerDirty = true;
    if (switched) {
      this.composer.sendAccepted();
    }
  }

  private applyThreadEvents(message: Extract<HostMessage, { type: 'thread_events' }>): void {
    if (!this.store.applyEvents(message.chatId, message.events)) {
      return;
    }
    if (message.events.some((event) => event.type === 'state_updated')) {
      this.headerDirty = true;
    }
    if (message.events.some((event) => event.type === 'turn_started')) {
      this.composer.sendAccepted();
    }
    for (const event of message.events) {
      if (event.type === 'turn_ended') {
        this.composer.turnEnded(event.turn.status);
      }
    }
  }

  private applyAgentStatus(message: Extract<HostMessage, { type: 'agent_status' }>): void {
    if (isRestricted(this.store.status) && !isRestricted(message.status)) {
      this.alerts.clear(); // trust was granted: what was said about it no longer holds
    }
    this.store.setStatus(message.status);
    this.headerDirty = true;
    if (message.status.state === 'error' && this.composer.pending !== undefined) {
      // A sign-in keeps the prompt on the host and sends it afterwards; other errors give it back.
      if (message.status.error?.kind === 'auth_required') {
        this.composer.sendAccepted();
      } else {
        this.composer.sendFailed();
      }
    }
  }

  private render(): void {
    const store = this.store;
    const changes = store.takeChanges();
    if (changes.reset || changes.view || changes.chats || this.headerDirty) {
      this.header.update(store);
      this.headerDirty = false;
    }
    this.banner.update(store.status, store.agentName);
    this.saving.update(store.saveProblem);
    const agentId = store.selectedAgent?.id;
    this.transcript.apply(changes, store, {
      agentName: store.agentName,
      isDemo: agentId === DEMO_AGENT_ID,
      hasCommands: store.state.commands.length > 0,
      recentChats: store.chats.filter((chat) => chat.chatId !== store.chatId && chat.title.trim() !== ''),
      restricted: isRestricted(store.status),
    });
    const outgoing = this.composer.pending;
    const pending = outgoing && { text: outgoing.text, status: store.status, agentName: store.agentName };
    if (this.pending.update(pending)) {
      this.transcript.showPending(this.pending.element, pending !== undefined);
    }
    this.plan.update(store.state.plan, store.runningTurn !== undefined);
    this.reviews.update(store.editReviews);
    this.elicitations.update(store.elicitations);
    this.problems.update(store.runningTurn === undefined ? store.problemsOffer : undefined);
    this.worktree.update({
      worktree: store.worktree,
      offer: store.entries.length === 0 ? store.worktreeOffer : undefined,
      running: store.runningTurn !== undefined,
    });
    const composerState: ComposerState = {
      running: store.runningTurn !== undefined,
      agentName: store.agentName,
      commands: store.state.commands,
      attachments: store.attachments,
      acceptsImages: store.status.promptCapabilities?.image,
      locked: lockReason(store),
      currentFile: store.currentFile,
    };
    // A stream renders every frame and rarely changes the composer: updating it anyway cost
    // ≈ 0.25 ms a frame (its buttons, placeholder and highlights are rewritten).
    if (!sameFields(composerState, this.composerShown)) {
      this.composer.update(composerState);
      this.composerShown = composerState;
    }
    // Following the bottom happens in the transcript's ResizeObserver, after the browser's own
    // layout (or, for the markdown worker's answers, at the next frame's start): reading scrollHeight
    // here would force an extra layout of the whole transcript.
    this.focus.settle();
  }

  /** Files and images dropped anywhere on the chat go to the composer. */
  private takeDrop(transfer: DataTransfer): void {
    void this.composer.acceptTransfer(transfer).then(() => this.scheduler.request());
    this.composer.focus();
  }

  /**
   * A failure card's Retry: the message that came back to the composer goes again (the host starts an
   * agent that did not answer afresh); with nothing there, the agent is started again.
   */
  private retryFromCard(): void {
    if (this.composer.input.value.trim() !== '') {
      this.composer.trySend();
    } else {
      this.bridge.post({ type: 'restart_agent' });
    }
  }

  /** Edit and resend: the message's text back in the composer, to be sent as a fork (not while a turn runs). */
  private editMessage(entryId: string, text: string, turnId: string | undefined): void {
    if (this.store.runningTurn !== undefined) {
      this.alerts.show(
        'Wait for the agent to finish (or stop it) before editing an earlier message.',
        'warning',
      );
      return;
    }
    const turn = turnId === undefined ? undefined : this.store.turn(turnId);
    this.edit.start(entryId, turn?.checkpointId !== undefined);
    const input = this.composer.input;
    input.value = text;
    input.dispatchEvent(new Event('input'));
    input.setSelectionRange(text.length, text.length);
    this.composer.focus();
  }
}

/**
 * Why the composer takes no message: the workspace is not trusted (no agent may start), or another window
 * writes this chat, so turns typed here would not be saved.
 */
function lockReason(store: ChatStore): string | undefined {
  if (isRestricted(store.status)) {
    return 'Restricted Mode. Trust this workspace to chat with an agent.';
  }
  return store.readOnly ? `Read-only in this window. ${store.saveProblem ?? ''}`.trim() : undefined;
}

/** The agent is not started because the workspace is not trusted. */
function isRestricted(status: ChatStore['status']): boolean {
  return status.state === 'error' && status.error?.kind === 'untrusted';
}

/** Whether two objects hold the same values (compared with `===`) under the same keys. */
function sameFields<T extends object>(a: T, b: T | undefined): boolean {
  if (b === undefined) {
    return false;
  }
  const keys = Object.keys(a) as (keyof T)[];
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
