import { findOnPath, type Environment } from '../../../core/connection/spawnProgram';
import type { KnownAgent } from '../../../chat/agentPresets';
import {
  distributionFor,
  distributionLabel,
  isNewerVersion,
  type Distribution,
  type PlatformKey,
  type RegistryAgent,
} from '../core/registryFormat';

/** One line of the Add Agent list. */
export interface AgentChoice {
  readonly agent: RegistryAgent;
  readonly distribution: Distribution | undefined;
  /** The agent's program found on PATH (installed some other way), if any. */
  readonly onPath: string | undefined;
  /** The version in the user's settings, when it was added from the registry before. */
  readonly installedVersion: string | undefined;
  readonly label: string;
  readonly description: string;
  readonly detail: string;
}

/** What Add Agent needs to know of the user's configured agents. */
export interface ConfiguredRegistryAgent {
  readonly registry?: { readonly id: string; readonly version: string } | undefined;
}

/** The registry's agents as the picker lists them: name, version, how it installs, whether it is already here. */
export function agentChoices(
  agents: readonly RegistryAgent[],
  configured: readonly ConfiguredRegistryAgent[],
  platform: PlatformKey | undefined,
  env: Environment,
): AgentChoice[] {
  return agents.map((agent) => {
    const distribution = distributionFor(agent, platform);
    const program = programOf(agent, platform);
    const onPath = program ? findOnPath(program, env) : undefined;
    const installedVersion = configured.find((entry) => entry.registry?.id === agent.id)?.registry?.version;
    const status = installedVersion
      ? isNewerVersion(agent.version, installedVersion)
        ? `added (${installedVersion}, update available)`
        : 'added'
      : onPath
        ? `${program} on PATH`
        : undefined;
    return {
      agent,
      distribution,
      onPath,
      installedVersion,
      label: agent.name,
      description: [agent.version, distributionLabel(distribution), status].filter(Boolean).join(' · '),
      detail: agent.description,
    };
  });
}

/**
 * The program an agent installs under, to look for on PATH: a binary's executable name, else the
 * package's own name (`@google/gemini-cli@1.0` → `gemini-cli`) or its `cmd`.
 */
export function programOf(agent: RegistryAgent, platform: PlatformKey | undefined): string | undefined {
  const binary = platform ? agent.distribution.binary?.[platform] : undefined;
  if (binary) {
    return binary.cmd
      .split(/[\\/]/)
      .at(-1)
      ?.replace(/\.exe$/i, '');
  }
  const spec = agent.distribution.npx ?? agent.distribution.uvx;
  if (!spec) {
    return undefined;
  }
  if (spec.cmd) {
    return spec.cmd;
  }
  const name = spec.package
    .replace(/^@[^/]+\//, '')
    .replace(/[@=].*$/, '')
    .toLowerCase();
  return /^[a-z0-9][a-z0-9._-]*$/.test(name) ? name : undefined;
}

/** The registry's agents as the doctor's advice names them. */
export function knownAgentsOf(
  agents: readonly RegistryAgent[],
  platform: PlatformKey | undefined,
): KnownAgent[] {
  return agents.map((agent) => ({
    registryId: agent.id,
    name: agent.name,
    version: agent.version,
    distribution: distributionLabel(distributionFor(agent, platform)),
  }));
}
