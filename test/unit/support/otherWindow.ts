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

/** What a stepwise window (journalWindow.ts) answers to a step. */
export interface StepAnswer {
  readonly problem: string | null;
  readonly known?: boolean;
}

/**
 * Another window as a real process that does one journal step at a time (journalWindow.ts): `step`
 * resolves with its answer, so the test decides the order of every read, write, compaction and exit.
 */
export function openWindow(dir: string, chatId: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'journalWindow.ts'), dir, chatId],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const exited = once(child, 'exit');
  const answers: string[] = [];
  const waiting: { resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  let buffered = '';
  child.stdout.on('data', (data: Buffer) => {
    buffered += data.toString();
    for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      const next = waiting.shift();
      if (next) {
        next.resolve(line);
      } else {
        answers.push(line);
      }
    }
  });
  // 'close', not 'exit': its last answer may still be in the pipe when it exits.
  child.on('close', (code) => {
    for (const next of waiting.splice(0)) {
      next.reject(new Error(`the window exited with ${code} before answering`));
    }
  });
  child.stdin.on('error', () => {}); // a step after it exited fails by its answer, above
  const step = async (command: string): Promise<StepAnswer> => {
    const line = new Promise<string>((resolve, reject) => {
      const ready = answers.shift();
      if (ready !== undefined) {
        resolve(ready);
      } else {
        waiting.push({ resolve, reject });
      }
    });
    child.stdin.write(`${command}\n`);
    return JSON.parse(await line) as StepAnswer;
  };
  return { child, step, exited };
}
