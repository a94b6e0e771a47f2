/**
 * Another window with a turn running, as a real process: it registers one running turn on `folder` in the
 * shared `dir`, says "started" as soon as `start` returns and "running" once its file is written, and ends
 * the turn when its stdin closes (or dies when killed). With `fifo`, a FIFO is made first where its turn's
 * file goes (as a hostile agent could), and once running it reads the shared folder back for other chats' turns: "others N".
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { RunningTurns } from '../../../../src/features/checkpoints/chat/runningTurns';

const [dir, folder, title, fifo] = process.argv.slice(2) as [string, string, string, string | undefined];
if (fifo === 'fifo') {
  mkdirSync(dir, { recursive: true });
  execFileSync('mkfifo', [path.join(dir, `${process.pid}-1.json`)]);
}
const turns = new RunningTurns();
const chat = {};
turns.shareIn(dir);
const handle = turns.start({
  chat,
  turnId: 't1',
  title: () => title,
  folders: [folder],
  since: Date.now(),
});
process.stdout.write('started\n');
void turns.settled().then(async () => {
  process.stdout.write('running\n');
  if (fifo === 'fifo') {
    // Reading the folder back meets the FIFO too (a read that opened it would wait for a writer).
    const others = await turns.othersOn(chat, [folder]);
    process.stdout.write(`others ${others.length}\n`);
  }
});
process.stdin.resume();
process.stdin.on('end', () => {
  handle.dispose();
  void turns.settled().then(() => {
    process.stdout.write('ended\n');
    process.exit(0);
  });
});
