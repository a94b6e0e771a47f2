import type { AttachmentRef } from '../protocol';
import type { ChatCollection } from './chatCollection';
import { earlierChatMentions } from './composerContext';
import type { MentionSource } from '../features/mentions/chat/mentionSource';
import type { ViewPresenter } from './viewPresenter';
import type { ViewSlot } from './viewSlot';
import type { EditorActions } from './viewSink';

/** How many entries the @-mention picker shows from the workspace. */
const MENTION_LIMIT = 50;

/** The composer's helpers: the @-mention picker's entries and the files waiting on a view's composer. */
export class ComposerActions {
  constructor(
    private readonly chats: ChatCollection,
    private readonly presenter: ViewPresenter,
    private readonly editor: EditorActions,
    private readonly mentions?: MentionSource,
  ) {}

  /** Answers the @-mention picker: the workspace's entries, then earlier chats that match. */
  async queryMentions(query: string, requestId: number, view: ViewSlot): Promise<void> {
    const workspace = (await this.mentions?.query(query, MENTION_LIMIT)) ?? [];
    const chats = earlierChatMentions(this.chats.sorted(), view.chatId, query);
    this.presenter.postTo(view, {
      type: 'mention_results',
      requestId,
      items: [...workspace, ...chats].slice(0, 200),
    });
  }

  /** The paperclip: the files the user picks go on the composer. */
  async pickFiles(view: ViewSlot): Promise<void> {
    const picked = (await this.editor.pickFiles?.()) ?? [];
    for (const attachment of picked) {
      this.addAttachment(attachment, view);
    }
  }

  /** Puts a file on the view's composer, to go with the next message (kept until sent, across view reloads). */
  addAttachment(attachment: AttachmentRef, view: ViewSlot): void {
    if (view.addAttachment(attachment)) {
      this.presenter.postTo(view, { type: 'add_attachment', attachment });
    }
  }

  removeAttachment(uri: string, view: ViewSlot): void {
    view.removeAttachment(uri);
  }
}
