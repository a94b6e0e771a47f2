import * as path from 'node:path';
import { findOnPath, type Environment } from '../../../core/connection/spawnProgram';
import type { ArchiveLimits } from '../core/archiveEntries';
import { installBinary, type InstallProgress } from '../core/binaryInstall';
import type { Distribution, PackageSpec, RegistryAgent } from '../core/registryFormat';

/** An installed agent as it goes into `acpAgents.agents`, with where it came from (for Update). */
export interface InstalledAgent {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly registry: { readonly id: string; readonly version: string };
  /** A download: whether it was checked against the registry's checksum (the registry may give none). */
  readonly checksum?: 'verified' | 'none';
}

export class MissingToolError extends Error {
  constructor(
    readonly tool: string,
    readonly help: string,
  ) {
    super(`${tool} was not found on PATH. ${help}`);
    this.name = 'MissingToolError';
  }
}

export const UV_HELP =
  'Install uv (https://docs.astral.sh/uv/getting-started/installation/), then try again.';
export const NODE_HELP = 'Install Node.js (https://nodejs.org), which comes with npx, then try again.';

export interface InstallContext {
  /** Binary agents go to `<agentsDir>/<id>/<version>/`. */
  readonly agentsDir: string;
  readonly env: Environment;
  readonly progress: InstallProgress;
  readonly signal?: AbortSignal;
  /** Hosts a download may come from over plain http (`acpAgents.registry.allowHttpFrom`). */
  readonly allowHttpFrom?: readonly string[];
  /** The archive's bounds (tests; `ARCHIVE_LIMITS` otherwise). */
  readonly limits?: ArchiveLimits;
}

/**
 * Installs a registry agent and says how to start it: `npx` agents run as a pinned `npx -y pkg@version`
 * (nothing installed globally; npx caches the package), `uvx` agents likewise when uv is present,
 * binary agents are downloaded, checked and unpacked into the extension's storage.
 */
export async function installAgent(
  agent: RegistryAgent,
  distribution: Distribution,
  context: InstallContext,
): Promise<InstalledAgent> {
  const registry = { id: agent.id, version: agent.version };
  switch (distribution.kind) {
    case 'npx': {
      if (!findOnPath('npx', context.env)) {
        throw new MissingToolError('npx', NODE_HELP);
      }
      return {
        name: agent.name,
        ...packageCommand('npx', ['-y'], '--package', distribution.spec, agent.version),
        registry,
      };
    }
    case 'uvx': {
      if (!findOnPath('uvx', context.env)) {
        throw new MissingToolError('uvx', UV_HELP);
      }
      return {
        name: agent.name,
        ...packageCommand('uvx', [], '--from', distribution.spec, agent.version),
        registry,
      };
    }
    case 'binary': {
      const folder = path.join(context.agentsDir, agent.id, safeSegment(agent.version));
      const { program, checksum } = await installBinary(distribution.spec, folder, context.progress, {
        ...(context.signal ? { signal: context.signal } : {}),
        ...(context.allowHttpFrom ? { allowHttpFrom: context.allowHttpFrom } : {}),
        ...(context.limits ? { limits: context.limits } : {}),
      });
      return {
        name: agent.name,
        command: program,
        args: distribution.spec.args ?? [],
        env: distribution.spec.env ?? {},
        registry,
        checksum,
      };
    }
    default: {
      const unknown: never = distribution;
      throw new Error(`Unknown distribution ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * `npx -y <pkg@version> args` or, when the package's program is not its default one,
 * `npx -y --package <pkg@version> <cmd> args` (the registry's FORMAT.md).
 */
function packageCommand(
  runner: string,
  flags: readonly string[],
  fromFlag: string,
  spec: PackageSpec,
  version: string,
): { command: string; args: string[]; env: Record<string, string> } {
  const pinned = pinVersion(spec.package, version);
  const target = spec.cmd ? [fromFlag, pinned, spec.cmd] : [pinned];
  return { command: runner, args: [...flags, ...target, ...(spec.args ?? [])], env: { ...spec.env } };
}

/** `@scope/pkg` → `@scope/pkg@1.2.3`; a package already pinned (or a path or URL) is left as it is. */
export function pinVersion(pkg: string, version: string): string {
  const isLocal = /^(\.|\/|[a-z]:\\|file:|https?:)/i.test(pkg) || pkg.endsWith('.tgz');
  const name = pkg.startsWith('@') ? pkg.slice(1) : pkg;
  return isLocal || name.includes('@') || name.includes('==') ? pkg : `${pkg}@${version}`;
}

function safeSegment(version: string): string {
  const cleaned = version.replace(/[^\w.+-]/g, '_');
  return cleaned === '.' || cleaned === '..' || cleaned === '' ? '_' : cleaned;
}
