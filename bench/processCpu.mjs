// The bench's own process tree, read from /proc (Linux): the processes it started (Chromium, code-server
// and theirs) and the CPU time their threads used.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICK_MS = 10;

/** The ids of this process's descendants (Chromium's processes), from /proc; empty elsewhere. */
export function descendants() {
  const children = new Map();
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const parent = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
      children.set(parent, [...(children.get(parent) ?? []), pid]);
    } catch {
      // The process ended meanwhile.
    }
  }
  const found = [];
  const stack = [String(process.pid)];
  while (stack.length > 0) {
    for (const child of children.get(stack.pop()) ?? []) {
      found.push(child);
      stack.push(child);
    }
  }
  return found;
}

/**
 * A thread's CPU time (ms): the scheduler's exact count in nanoseconds (`schedstat`), else the
 * `stat` ticks — 10 ms each and charged to whichever thread a tick finds running, too coarse for
 * an idle page's few milliseconds a second.
 */
export function threadCpuMs(task) {
  try {
    return Number(readFileSync(`${task}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    const stat = readFileSync(`${task}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  }
}
