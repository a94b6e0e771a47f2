import * as path from 'node:path';

/** How to start a program without a shell: what to execute and with which arguments. */
export interface SpawnPlan {
  readonly file: string;
  readonly args: readonly string[];
  /** Windows only: the arguments are already quoted for `cmd.exe` and must be passed verbatim. */
  readonly windowsVerbatimArguments: boolean;
}

export interface SpawnHost {
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly isFile: (candidate: string) => boolean;
}

/**
 * Plans the spawn of `command args` without a shell. On Windows, `npx`, `claude-agent-acp` and most
 * npm-installed agents are `.cmd` shims: Node cannot execute those directly (spawn ENOENT / EINVAL),
 * so the command is resolved through PATH and PATHEXT and a shim runs under `cmd.exe /d /s /c` with
 * every argument quoted so that cmd's metacharacters stay literal.
 */
export function planSpawn(command: string, args: readonly string[], host: SpawnHost): SpawnPlan {
  if (host.platform !== 'win32') {
    return { file: command, args, windowsVerbatimArguments: false };
  }
  const resolved = resolveOnWindowsPath(command, host) ?? command;
  if (!/\.(cmd|bat)$/i.test(resolved)) {
    return { file: resolved, args, windowsVerbatimArguments: false };
  }
  // Shims generated into node_modules/.bin re-parse their arguments through a second cmd.exe.
  const passes = /node_modules[\\/]\.bin[\\/][^\\/]+\.cmd$/i.test(resolved) ? 2 : 1;
  const line = [
    quoteForCmd(path.win32.normalize(resolved), 1),
    ...args.map((a) => quoteForCmd(a, passes)),
  ].join(' ');
  const shell = host.env['ComSpec'] ?? host.env['COMSPEC'] ?? 'cmd.exe';
  return { file: shell, args: ['/d', '/s', '/c', `"${line}"`], windowsVerbatimArguments: true };
}

/** The executable `command` runs as, searched on PATH (and PATHEXT on Windows); undefined when absent. */
export function findOnPath(command: string, host: SpawnHost): string | undefined {
  if (host.platform === 'win32') {
    return resolveOnWindowsPath(command, host);
  }
  if (command.includes('/')) {
    return host.isFile(command) ? command : undefined;
  }
  const dirs = (host.env['PATH'] ?? '').split(':').filter((dir) => dir.length > 0);
  return dirs.map((dir) => path.posix.join(dir, command)).find(host.isFile);
}

function resolveOnWindowsPath(command: string, host: SpawnHost): string | undefined {
  const extensions = (host.env['PATHEXT'] ?? host.env['Pathext'] ?? '.COM;.EXE;.BAT;.CMD')
    .split(';')
    .filter((ext) => ext.length > 0);
  const hasExtension = path.win32.extname(command) !== '';
  const candidatesFor = (base: string): string[] =>
    hasExtension ? [base, ...extensions.map((ext) => base + ext)] : extensions.map((ext) => base + ext);

  if (/[\\/]/.test(command) || path.win32.isAbsolute(command)) {
    return candidatesFor(command).find(host.isFile);
  }
  const dirs = (host.env['PATH'] ?? host.env['Path'] ?? '').split(';').filter((dir) => dir.length > 0);
  for (const dir of dirs) {
    const found = candidatesFor(path.win32.join(dir, command)).find(host.isFile);
    if (found) {
      return found;
    }
  }
  return undefined;
}

/**
 * Quotes one argument for the MSVC runtime's parser (backslashes before a quote doubled), then
 * escapes cmd.exe's metacharacters with `^` once per cmd.exe pass the line goes through.
 */
function quoteForCmd(arg: string, cmdPasses: number): string {
  let quoted = arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, '$1$1');
  quoted = `"${quoted}"`;
  for (let i = 0; i < cmdPasses; i++) {
    quoted = quoted.replace(/[()[\]%!^"`<>&|;, *?]/g, '^$&');
  }
  return quoted;
}
