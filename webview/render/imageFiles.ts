import {
  IMAGE_MIME_TYPES,
  MAX_DROPPED_TEXT_CHARS,
  MAX_IMAGE_BYTES,
  type ImageAttachment,
} from '../../src/protocol';

type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];

/** An image ready to send, with its size for the chip. */
export interface PendingImage extends ImageAttachment {
  readonly kind: 'image';
  readonly id: number;
  readonly bytes: number;
}

/** A text file dropped from the OS into a browser window: it has no path, so its text goes along. */
export interface PendingTextFile {
  readonly kind: 'text';
  readonly id: number;
  readonly name: string;
  readonly text: string;
  readonly bytes: number;
}

/** What the composer carries by value (not by URI) to the next message. */
export type CarriedFile = PendingImage | PendingTextFile;

let nextImageId = 1;

/** Whether a file is an image the composer can send (by its type). */
export function isImageFile(file: File): boolean {
  return file.type.startsWith('image/');
}

/** "1.2 MB" */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) {
    return `${bytes} B`;
  }
  if (bytes < 1024 * 1024) {
    return `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} KB`;
  }
  return `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MB`;
}

/**
 * Reads a pasted or dropped image as base64; a type the agents' image blocks do not take, or a file
 * over the bound, is refused with a message saying why (nothing is read then).
 */
export async function readImage(file: File): Promise<PendingImage | { readonly problem: string }> {
  const name = file.name || 'pasted image';
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) {
    return {
      problem: `${name} is ${file.type || 'of an unknown type'}; PNG, JPEG, GIF and WebP images can be sent.`,
    };
  }
  if (file.size > MAX_IMAGE_BYTES) {
    return {
      problem: `${name} is ${formatBytes(file.size)}; images up to ${formatBytes(MAX_IMAGE_BYTES)} can be sent.`,
    };
  }
  const data = base64(new Uint8Array(await file.arrayBuffer()));
  return {
    kind: 'image',
    id: nextImageId++,
    name,
    mimeType: file.type as ImageMimeType,
    data,
    bytes: file.size,
  };
}

/** Reads a dropped file without a path as text; a large or binary file is refused with a message. */
export async function readDroppedText(file: File): Promise<PendingTextFile | { readonly problem: string }> {
  if (file.size > MAX_DROPPED_TEXT_CHARS) {
    return {
      problem: `${file.name} is ${formatBytes(file.size)}; dropped text files up to ${formatBytes(MAX_DROPPED_TEXT_CHARS)} can be sent (open the folder in VS Code and drop it from the Explorer instead).`,
    };
  }
  const text = await file.text();
  if (text.includes('\u0000') || text.length > MAX_DROPPED_TEXT_CHARS) {
    return {
      problem: `${file.name} is not a text file; only images and text files can be dropped from outside VS Code.`,
    };
  }
  return { kind: 'text', id: nextImageId++, name: file.name, text, bytes: file.size };
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let offset = 0; offset < bytes.length; offset += chunk) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + chunk));
  }
  return btoa(binary);
}
