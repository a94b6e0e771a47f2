/**
 * Another window, as a real process: a journal writer (journalWriter.ts) that reads a chat, writes turns to it
 * once told to go, reports what it knows of its saving, and (with `hold`) keeps its lock until killed.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import * as path from 'node:path';

const WRITER = path.join(__dirname, 'journalWriter.ts');

export function runWriter(
  dir: string,
  chatId: string,
  name: string,
  count: number,
  compactEvery: number,
  hold = false,
) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      WRITER,
      dir,
      chatId,
      name,
      String(count),
      String(compactEvery),
      ...(hold ? ['hold'] : []),
    ],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  let out = '';
  const lines = (): string[] => out.split('\n').slice(0, -1);
  const lineAt = (index: number): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      const check = (): void => {
        const line = lines()[index];
        if (line !== undefined) {
          child.stdout.off('data', check);
          resolve(line);
        }
      };
      child.stdout.on('data', check);
      child.on('exit', (code) =>
        reject(new Error(`writer ${name} exited with ${code} before line ${index}`)),
      );
      check();
    });
  child.stdout.on('data', (data: Buffer) => {
    out += data.toString();
  });
  /** Resolves once the writer has read the chat; it writes only after `go()`. */
  const ready = lineAt(0).then(() => undefined);
  const go = (): void => {
    child.stdin.end('go\n');
  };
  const report = lineAt(1).then((line) => JSON.parse(line) as { name: string; problem: string | null });
  const exited = once(child, 'exit');
  return { child, ready, go, report, exited };
}

/** Starts `writers` together: each has read the chat before any writes. */
export async function startTogether(...writers: ReturnType<typeof runWriter>[]): Promise<void> {
  await Promise.all(writers.map((writer) => writer.ready));
  for (const writer of writers) {
    writer.go();
  }
}
