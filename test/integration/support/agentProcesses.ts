/** The agent processes the extension host started, found by their command line. */
import { execFileSync } from 'node:child_process';

/** Pids of this extension host's direct children whose command line satisfies `matches`. */
export function childPids(matches: (args: string) => boolean): number[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  return listing
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .filter(([, , ppid, args]) => Number(ppid) === process.pid && matches(args ?? ''))
    .map(([, pid]) => Number(pid));
}

/** Pids of the demo agent processes the extension host started (children running dist/demo-agent.js). */
export function demoAgentPids(): number[] {
  return childPids((args) => /demo-agent\.js\s*$/.test(args));
}
