import { mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { FileNotFoundError, type FileSystemPort } from '../ports';

/** The file-system port on plain disk, for tests and tools outside VS Code. */
export class NodeFileSystem implements FileSystemPort {
  async readTextFile(filePath: string): Promise<string> {
    try {
      return await readFile(filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new FileNotFoundError(filePath);
      }
      throw error;
    }
  }

  async writeTextFile(filePath: string, content: string): Promise<void> {
    await mkdir(path.dirname(filePath), { recursive: true });
    await writeFile(filePath, content, 'utf8');
  }
}
