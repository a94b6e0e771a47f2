/**
 * Another window with a turn running, as a real process: it registers one running turn on `folder` in the
 * shared `dir`, says "running", and ends the turn when its stdin closes (or dies when killed).
 */
import { RunningTurns } from '../../../../src/features/checkpoints/chat/runningTurns';

const [dir, folder, title] = process.argv.slice(2) as [string, string, string];
const turns = new RunningTurns();
turns.shareIn(dir);
const handle = turns.start({
  chat: {},
  turnId: 't1',
  title: () => title,
  folders: [folder],
  since: Date.now(),
});
process.stdout.write('running\n');
process.stdin.resume();
process.stdin.on('end', () => {
  handle.dispose();
  process.stdout.write('ended\n');
  process.exit(0);
});
