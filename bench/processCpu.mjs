// The bench's own process tree, read from /proc (Linux): the processes it started (Chromium, code-server
// and theirs) and the CPU time their threads used.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICK_MS = 10;

/** Each process's children (parent pid → child pids), from /proc; empty elsewhere. */
function childrenByParent() {
  const children = new Map();
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return children;
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
  return children;
}

/** The ids of `root`'s descendants (by default this process's: Chromium's and code-server's processes). */
export function descendants(root = String(process.pid), children = childrenByParent()) {
  const found = [];
  const stack = [root];
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

/** The CPU time (ms) every thread of process `pid` has used so far; 0 once it has ended. */
function processCpuMs(pid) {
  let total = 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        total += threadCpuMs(`/proc/${pid}/task/${task}`);
      } catch {
        // The thread ended meanwhile.
      }
    }
  } catch {
    // The process ended meanwhile.
  }
  return total;
}

/** What a process of the bench's tree does, by its command line (`underHost`: started by an extension host). */
function roleOf(command, underHost) {
  if (command.includes('chromium')) {
    if (command.includes('--type=renderer')) {
      return 'renderers';
    }
    return command.includes('--type=gpu-process') ? 'GPU' : 'browser';
  }
  if (command.includes('--type=extensionHost')) {
    return 'extension host';
  }
  if (underHost) {
    return /(^|\/)git /.test(command) ? 'git' : 'agent';
  }
  return 'server';
}

/**
 * The whole machine's CPU time so far (ms), as the kernel counts it for the root control group: it includes
 * processes that ended meanwhile (a git run), which no process's own count holds any more. Undefined where
 * there is no such count.
 */
function machineCpuMs() {
  try {
    return Number(readFileSync('/sys/fs/cgroup/cpuacct/cpuacct.usage', 'utf8')) / 1e6;
  } catch {
    try {
      const usec = /usage_usec (\d+)/.exec(readFileSync('/sys/fs/cgroup/cpu.stat', 'utf8'));
      return usec ? Number(usec[1]) / 1e3 : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * The CPU time (ms) used so far by the bench's processes, by role (every thread of each: renderers, GPU,
 * browser, server, extension host, agent, git, the bench itself), and by the whole machine.
 */
export function cpuByRole() {
  const children = childrenByParent();
  const underHost = new Set();
  const roles = { bench: processCpuMs(String(process.pid)) };
  for (const pid of descendants(String(process.pid), children)) {
    let command;
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      continue; // ended meanwhile
    }
    const role = roleOf(command, underHost.has(pid));
    if (role === 'extension host') {
      descendants(pid, children).forEach((child) => underHost.add(child));
    }
    roles[role] = (roles[role] ?? 0) + processCpuMs(pid);
  }
  return { machine: machineCpuMs(), roles };
}

/**
 * The CPU time (ms) each role used since `before` (a `cpuByRole()`), with `all` (every role but the bench's
 * own) and `other` (what the machine used beyond the roles: processes that ended, anything outside the bench).
 */
export function cpuSince(before) {
  const now = cpuByRole();
  const used = {};
  for (const [role, ms] of Object.entries(now.roles)) {
    used[role] = Math.max(0, ms - (before.roles[role] ?? 0));
  }
  const counted = Object.values(used).reduce((sum, ms) => sum + ms, 0);
  if (now.machine !== undefined && before.machine !== undefined) {
    used.other = Math.max(0, now.machine - before.machine - counted);
  }
  used.all = Object.entries(used)
    .filter(([role]) => role !== 'bench')
    .reduce((sum, [, ms]) => sum + ms, 0);
  return used;
}
