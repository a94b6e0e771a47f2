import { readFile, stat } from 'node:fs/promises';
import * as nodePath from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FileSystemPort } from '../core/ports';
import type { PromptBlock } from '../core/session/promptBlocks';
import { MAX_IMAGE_BYTES, type AttachmentRef, type DroppedTextFile, type ImageAttachment } from '../protocol';

/** Image files attached by URI (dropped from the Explorer, picked with the paperclip) go as image blocks. */
const IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/** What resolving attachments and @-mentions needs besides the file system. */
export interface AttachmentSources {
  readonly files: FileSystemPort;
  /** The block for an attachment a contribution resolves (a file's problems), else undefined. */
  readonly contributed?: (attachment: AttachmentRef) => Promise<PromptBlock> | undefined;
  /** An earlier chat's transcript as markdown, or undefined when it is gone. */
  readonly chatTranscript?: (chatId: string) => string | undefined;
}

/** The URI scheme of an @-mentioned chat (`acp-chat:<chatId>`). */
export const CHAT_URI_SCHEME = 'acp-chat:';

/**
 * Files and @-mentions attached to a message become prompt blocks. Text goes embedded (the agent
 * sees what the user sees, unsaved edits included) and `toAcpContent` turns it into a fenced text
 * block for agents without `embeddedContext`; a selection or symbol sends its lines; a folder, or
 * a file that cannot be read, goes as a link; problems and chats go as text.
 */
export function attachmentBlocks(
  attachments: readonly AttachmentRef[],
  sources: AttachmentSources,
): Promise<PromptBlock[]> {
  return Promise.all(attachments.map((attachment) => attachmentBlock(attachment, sources)));
}

async function attachmentBlock(attachment: AttachmentRef, sources: AttachmentSources): Promise<PromptBlock> {
  const contributed = sources.contributed?.(attachment);
  if (contributed) {
    return contributed;
  }
  const link: PromptBlock = { type: 'resource_link', uri: attachment.uri, name: attachment.name };
  switch (attachment.kind) {
    case 'folder':
    case 'problems': // without a feature that reads problems: the file it names
      return link;
    case 'chat': {
      const chatId = attachment.uri.startsWith(CHAT_URI_SCHEME)
        ? attachment.uri.slice(CHAT_URI_SCHEME.length)
        : attachment.uri;
      const transcript = sources.chatTranscript?.(chatId);
      if (transcript === undefined) {
        throw new Error(`The chat "${attachment.name}" no longer exists.`);
      }
      return { type: 'resource', uri: attachment.uri, text: transcript, mimeType: 'text/markdown' };
    }
    case 'selection':
    case 'symbol':
    case 'file':
    case 'editor':
    case undefined: {
      const filePath = localPath(attachment.uri);
      const imageType = attachment.range ? undefined : IMAGE_TYPES[nodePath.extname(filePath).toLowerCase()];
      if (imageType) {
        return imageFileBlock(filePath, attachment.name, imageType);
      }
      let text: string;
      try {
        text = await sources.files.readTextFile(filePath, { sessionId: '' });
      } catch {
        return link;
      }
      const uri = pathToFileURL(filePath).href;
      const range = attachment.range;
      if (!range) {
        return { type: 'resource', uri, text };
      }
      const lines = text.split('\n').slice(range.startLine - 1, range.endLine);
      return { type: 'resource', uri: `${uri}#L${range.startLine}-${range.endLine}`, text: lines.join('\n') };
    }
    default: {
      const unknown: never = attachment.kind;
      throw new Error(`Unknown attachment kind ${String(unknown)}`);
    }
  }
}

async function imageFileBlock(filePath: string, name: string, mimeType: string): Promise<PromptBlock> {
  const { size } = await stat(filePath);
  if (size > MAX_IMAGE_BYTES) {
    const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MB`;
    throw new Error(`${name} is ${megabytes(size)}; images up to ${megabytes(MAX_IMAGE_BYTES)} can be sent.`);
  }
  const data = (await readFile(filePath)).toString('base64');
  return { type: 'image', data, mimeType, uri: pathToFileURL(filePath).href };
}

/**
 * The extension host's path of an attached URI: `file:` URIs, and the `vscode-remote:` URIs a webview
 * gets for Explorer drops in a remote window (code-server, SSH), whose path is local to this host.
 */
function localPath(uri: string): string {
  if (uri.startsWith('file:')) {
    return fileURLToPath(uri);
  }
  if (uri.startsWith('vscode-remote:')) {
    return decodeURIComponent(new URL(uri).pathname);
  }
  return uri;
}

/** A `file:` URI for an attachment's URI or path. */
export function fileUri(uriOrPath: string): string {
  return uriOrPath.startsWith('file:') ? uriOrPath : pathToFileURL(uriOrPath).href;
}

/** Pasted or dropped images as image blocks (the agent's `image` capability is checked when sending). */
export function imageBlocks(images: readonly ImageAttachment[]): PromptBlock[] {
  return images.map((image) => ({ type: 'image', data: image.data, mimeType: image.mimeType }));
}

/**
 * Text files dropped from the OS into a browser window (no path the host could read) go with their
 * text, under an `untitled:` URI with their name.
 */
export function droppedTextBlocks(files: readonly DroppedTextFile[]): PromptBlock[] {
  return files.map((file) => ({
    type: 'resource',
    uri: `untitled:${encodeURIComponent(file.name)}`,
    text: file.text,
    mimeType: 'text/plain',
  }));
}
