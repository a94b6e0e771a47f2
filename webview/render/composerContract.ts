import type { AttachmentRef, CurrentFile, SessionStateMessage, ViewMessage } from '../../src/protocol';
import type { PersistedQueuedMessage } from '../vscodeApi';

// The contract between the chat and its composer: what the composer asks of the chat, and what it is shown.

/** A slash command the agent offers. */
export type Command = SessionStateMessage['commands'][number];

/** What the composer asks of the chat. */
export interface ComposerHost {
  post(message: ViewMessage): boolean;
  /** The draft kept across the view being hidden. */
  draft: string;
  /** A message was sent: follow the transcript again. */
  onSent(): void;
  /** Queued messages kept across the view being hidden. */
  queue: readonly PersistedQueuedMessage[];
  /** Something to tell the user inline. */
  report(message: string, severity?: 'error' | 'warning'): void;
  /** The attachments now on the composer (after the user removed one, sent them, or got them back). */
  setAttachments(attachments: readonly AttachmentRef[]): void;
}

/** What the composer shows, from the chat's state. */
export interface ComposerState {
  readonly running: boolean;
  readonly agentName: string;
  readonly commands: readonly Command[];
  readonly attachments: readonly AttachmentRef[];
  /** The agent's `promptCapabilities.image`; undefined until the agent is ready. */
  readonly acceptsImages: boolean | undefined;
  /** Why no message can be written now (shown in place of the hint); the box is disabled meanwhile. */
  readonly locked?: string | undefined;
  /** The active editor's file, suggested as a removable chip. */
  readonly currentFile?: CurrentFile | undefined;
}
