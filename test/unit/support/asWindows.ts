// Runs in a child process (`node --import tsx asWindows.ts <request JSON>`) that tells cross-spawn and
// which it is on Windows: both read `process.platform` once, when they load, so it is set before
// anything is imported. Node's `path` module and the file system stay this machine's (posix,
// case-sensitive): the caller uses posix paths and names files with the PATHEXT spelling.
// Prints one JSON line: the spawn cross-spawn plans (what `spawnProgram` would start) and what
// `findOnPath` finds.
Object.defineProperty(process, 'platform', { value: 'win32' });

interface Request {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  /** The agent's working folder (the workspace). */
  readonly cwd?: string;
}

interface CrossSpawnInternals {
  /** What cross-spawn's `spawn` hands to `child_process.spawn` (its own tests use it the same way). */
  _parse(
    command: string,
    args: string[],
    options: { env: Record<string, string>; cwd?: string },
  ): { command: string; args: string[]; options: { windowsVerbatimArguments?: boolean }; file?: string };
  _enoent: {
    verifyENOENT(status: number, parsed: unknown): (Error & { code?: string; syscall?: string }) | null;
  };
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2] ?? '{}') as Request;
  // Both whichs fall back to this process's PATHEXT when the env has none: ours reads it with ':'.
  const windowsPathExt = process.env['PATHEXT'] ?? '';
  const ours = <T>(lookUp: () => T): T => {
    process.env['PATHEXT'] = windowsPathExt.replaceAll(';', ':');
    try {
      return lookUp();
    } finally {
      process.env['PATHEXT'] = windowsPathExt;
    }
  };
  const crossSpawn = (await import('cross-spawn')).default as unknown as CrossSpawnInternals;
  const { findOnPath, programToStart } = await import('../../../src/core/connection/spawnProgram');
  // What spawnProgram does: our PATH lookup first, then cross-spawn's plan for that program.
  const program = ours(() => programToStart(request.command, withPosixDelimiters(request.env)));
  const parsed = crossSpawn._parse(program, [...request.args], {
    env: request.env,
    ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
  });
  // cmd.exe exits 1 when it finds no such command: cross-spawn turns that exit into this error.
  const notFound = crossSpawn._enoent.verifyENOENT(1, parsed);
  console.log(
    JSON.stringify({
      file: parsed.command,
      args: parsed.args,
      windowsVerbatimArguments: parsed.options.windowsVerbatimArguments ?? false,
      resolved: parsed.file ?? null,
      notFound: notFound ? { code: notFound.code, syscall: notFound.syscall } : null,
      foundOnPath: ours(() => findOnPath(request.command, withPosixDelimiters(request.env))) ?? null,
    }),
  );
}

/**
 * cross-spawn's bundled which@2 splits PATH and PATHEXT at ';' once it believes it is on Windows;
 * which@5 (ours) splits at Node's `path.delimiter`, which on this machine stays ':'. On Windows both
 * are ';', so the request is written the Windows way and translated for which@5 here.
 */
function withPosixDelimiters(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value.replaceAll(';', ':')]));
}

void main();
