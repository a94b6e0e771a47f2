/**
 * The name offered for a custom agent typed as a command line: the program's own name — the script an
 * interpreter runs, the package a runner fetches — never the interpreter's (`node …/demo-agent.js` is
 * "demo-agent", not "node"; `npx -y @zed-industries/claude-code-acp@1.2` is "claude-code-acp").
 */
export function suggestAgentName(command: string, args: readonly string[]): string {
  return nameOf(command, args, 0) || baseName(command) || command;
}

/** Interpreters: the program is the first argument that is not an option (`-m module`, `-jar file` too). */
const INTERPRETERS = new Set([
  'node',
  'nodejs',
  'bun',
  'deno',
  'python',
  'python2',
  'python3',
  'py',
  'pypy',
  'pypy3',
  'ruby',
  'perl',
  'php',
  'java',
  'dotnet',
  'sh',
  'bash',
  'zsh',
  'pwsh',
  'powershell',
  'tsx',
  'ts-node',
]);

/** Runners that fetch a package: the program is the package named after their subcommands and options. */
const RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'uvx', 'pipx', 'uv', 'npm', 'pnpm', 'yarn']);

/** A runner's or interpreter's subcommands before the program (`uv tool run`, `pnpm dlx`, `deno run`). */
const SUBCOMMANDS = new Set(['run', 'tool', 'dlx', 'exec', 'x']);

/** Options whose value is the next argument and is not the program (`npx -p pkg`, `node -r hook`). */
const VALUE_OPTIONS = new Set([
  '-p',
  '--package',
  '--from',
  '--with',
  '--python',
  '-r',
  '--require',
  '--import',
  '--loader',
  '-cp',
  '-classpath',
]);

/** File names that say nothing about the program: its folder names it instead. */
const GENERIC = new Set([
  'index',
  'main',
  'cli',
  'app',
  'server',
  'run',
  'start',
  'bin',
  'dist',
  'build',
  'out',
  'lib',
  'src',
  '__main__',
]);

function nameOf(command: string, args: readonly string[], depth: number): string {
  const program = baseName(command).toLowerCase();
  if (depth > 2) {
    return '';
  }
  if (program === 'env') {
    // `env NAME=value … program args`: the program after the assignments.
    const at = args.findIndex((arg) => !arg.includes('=') && !arg.startsWith('-'));
    return at < 0 ? '' : nameOf(args[at] as string, args.slice(at + 1), depth + 1);
  }
  if (!INTERPRETERS.has(program) && !RUNNERS.has(program)) {
    return scriptName(command);
  }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-m' && INTERPRETERS.has(program)) {
      // `python -m package.module`: the package.
      return (args[i + 1] ?? '').split('.')[0] ?? '';
    }
    if (VALUE_OPTIONS.has(arg)) {
      i++;
    } else if (!arg.startsWith('-') && !(SUBCOMMANDS.has(arg) && i < args.length - 1)) {
      // A runner's argument is a package unless it is a path (`uv run ./agent.py`).
      return RUNNERS.has(program) && !isPath(arg) ? packageName(arg) : scriptName(arg);
    }
  }
  return '';
}

/** A file rather than a package: `./x`, `/x`, `~/x`, `C:\\x`, or a script's extension. */
function isPath(arg: string): boolean {
  return /^(\.{1,2}[\\/]|[\\/~]|[A-Za-z]:)/.test(arg) || /\.(py|js|mjs|cjs|ts)$/i.test(arg);
}

/** `@scope/name@1.2.3` → `name`; `name==1.0` (pip) → `name`. */
function packageName(spec: string): string {
  const withoutScope = spec.startsWith('@') ? spec.slice(spec.indexOf('/') + 1) : spec;
  return withoutScope.split(/@|==|>=|<=|\[/)[0] ?? '';
}

/** A script's or program's name: its file name without the extension, else a folder above that names it. */
function scriptName(path: string): string {
  const parts = path.split(/[\\/]+/).filter(Boolean);
  for (let i = parts.length - 1; i >= 0; i--) {
    const name = withoutExtension(parts[i] as string);
    if (name && !GENERIC.has(name.toLowerCase())) {
      return name;
    }
  }
  return '';
}

function baseName(path: string): string {
  return withoutExtension(
    path
      .split(/[\\/]+/)
      .filter(Boolean)
      .at(-1) ?? '',
  );
}

function withoutExtension(name: string): string {
  return name.replace(/\.(js|mjs|cjs|ts|mts|py|rb|pl|php|jar|dll|sh|ps1|cmd|bat|exe)$/i, '');
}
