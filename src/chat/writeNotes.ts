import type { FileSystemPort } from '../core/ports';

/** What is told before our own fs/write_text_file writes a file (the change review). */
export interface WriteNotes {
  note(path: string): Promise<void>;
}

/**
 * `ports` whose fs/write_text_file first tells `notes` what it is about to write: a checkpoint store
 * without git records the file's bytes before our own write replaces them.
 */
export function withWriteNotes<P extends { readonly fileSystem: FileSystemPort }>(
  ports: P,
  notes: WriteNotes | undefined,
): P {
  if (!notes) {
    return ports;
  }
  const files = ports.fileSystem;
  const fileSystem: FileSystemPort = {
    readTextFile: (path, context) => files.readTextFile(path, context),
    writeTextFile: async (path, content, context) => {
      await notes.note(path);
      return files.writeTextFile(path, content, context);
    },
  };
  return { ...ports, fileSystem };
}
