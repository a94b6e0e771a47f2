import { IMAGE_MIME_TYPES, MAX_IMAGE_BYTES, type ImageAttachment } from '../../src/protocol';

type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];

/** An image ready to send, with its size for the chip. */
export interface PendingImage extends ImageAttachment {
  readonly id: number;
  readonly bytes: number;
}

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
  return { id: nextImageId++, name, mimeType: file.type as ImageMimeType, data, bytes: file.size };
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let offset = 0; offset < bytes.length; offset += chunk) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + chunk));
  }
  return btoa(binary);
}
