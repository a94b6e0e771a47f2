/**
 * Whether process `pid` runs on this machine (signal 0 checks without signalling). EPERM: it runs, as another
 * user. A pid reused since only makes a caller wait or ask once too often.
 */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
