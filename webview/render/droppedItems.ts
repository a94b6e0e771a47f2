import type { AttachmentRef } from '../../src/protocol';

/** What a drop or a paste carries that the composer can use. */
export interface DroppedItems {
  readonly images: readonly File[];
  /** Workspace or OS files with a URI (VS Code's Explorer, with Shift held). */
  readonly files: readonly AttachmentRef[];
  /** Files without a URI that are not images (a browser's OS drop): their text goes by value. */
  readonly others: readonly File[];
}

/**
 * Sorts a DataTransfer: image files, file URIs (VS Code puts them as `application/vnd.code.uri-list`,
 * `text/uri-list` or `resourceurls`), and files that carry neither.
 */
export function droppedItems(transfer: DataTransfer): DroppedItems {
  const uris = new Set<string>();
  for (const type of ['application/vnd.code.uri-list', 'text/uri-list']) {
    for (const line of transfer.getData(type).split(/\r?\n/)) {
      const uri = line.trim();
      if (uri !== '' && !uri.startsWith('#')) {
        uris.add(uri);
      }
    }
  }
  try {
    const resources: unknown = JSON.parse(transfer.getData('resourceurls') || '[]');
    if (Array.isArray(resources)) {
      for (const resource of resources) {
        if (typeof resource === 'string') {
          uris.add(resource);
        }
      }
    }
  } catch {
    // Not VS Code's shape: the other types are enough.
  }
  const files = [...uris]
    .filter((uri) => /^(file|vscode-remote|vscode-userdata):/i.test(uri))
    .map((uri): AttachmentRef => ({
      uri,
      name: decodeURIComponent(uri.replace(/\/+$/, '').split('/').pop() ?? uri),
    }));
  const images: File[] = [];
  const others: File[] = [];
  for (const file of Array.from(transfer.files)) {
    if (file.type.startsWith('image/')) {
      images.push(file);
    } else if (files.length === 0) {
      others.push(file);
    }
  }
  // An OS drop can carry an image both as a file and as its URI: send the image once, as an image.
  const imageNames = new Set(images.map((image) => image.name));
  return { images, files: files.filter((file) => !imageNames.has(file.name)), others };
}

/** Whether a drag carries something the composer could take (to show the drop target). */
export function carriesDroppable(transfer: DataTransfer | null): boolean {
  if (!transfer) {
    return false;
  }
  return Array.from(transfer.types).some((type) =>
    ['Files', 'text/uri-list', 'application/vnd.code.uri-list', 'resourceurls'].includes(type),
  );
}

/**
 * Makes the whole chat `root` a drop target: a drag that carries files or images marks it, and a drop hands
 * its transfer to `take` (VS Code lets a drag from the Explorer into a webview through with Shift held).
 */
export function acceptDrops(root: HTMLElement, take: (transfer: DataTransfer) => void): void {
  root.addEventListener('dragover', (event) => {
    if (carriesDroppable(event.dataTransfer)) {
      event.preventDefault();
      if (event.dataTransfer) {
        event.dataTransfer.dropEffect = 'copy';
      }
      root.classList.add('drop-target');
    }
  });
  root.addEventListener('dragleave', (event) => {
    if (event.relatedTarget === null || !root.contains(event.relatedTarget as Node)) {
      root.classList.remove('drop-target');
    }
  });
  root.addEventListener('drop', (event) => {
    root.classList.remove('drop-target');
    if (!event.dataTransfer || !carriesDroppable(event.dataTransfer)) {
      return;
    }
    event.preventDefault();
    take(event.dataTransfer);
  });
}
