// Another window (a real process) that takes a worktree's lock: prints `held` or `busy <pid>`, keeps it
// until its stdin closes (then releases it, as a window closing does), or dies holding it when killed.
import { WorktreeLocks } from '../../../../src/features/worktrees/core/worktreeLocks';

const [lockDir, worktree] = process.argv.slice(2) as [string, string];
const locks = new WorktreeLocks(lockDir);
void locks.hold(worktree).then((hold) => {
  process.stdout.write(hold.held ? 'held\n' : `busy ${hold.owner?.pid ?? '?'}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => {
  locks.dispose();
  process.exit(0);
});
