import * as z from 'zod';

/**
 * The ACP Registry's index (https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json, format in
 * github.com/agentclientprotocol/registry FORMAT.md): agents with how each is distributed — an `npx`
 * package, a `uvx` package, or per-platform binary archives. Downloaded data: parsed, never trusted.
 */
export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';

const Env = z.record(z.string(), z.string());
const Args = z.array(z.string());

const PackageDistribution = z.object({
  package: z.string().trim().min(1),
  cmd: z.string().trim().min(1).optional(),
  args: Args.optional(),
  env: Env.optional(),
});

const BinaryTarget = z.object({
  archive: z.string().url(),
  cmd: z.string().trim().min(1),
  args: Args.optional(),
  env: Env.optional(),
  /** Not in the format yet; checked when a registry gives it (hex SHA-256 of the archive). */
  sha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/)
    .optional(),
});

export const PLATFORM_KEYS = [
  'darwin-aarch64',
  'darwin-x86_64',
  'linux-aarch64',
  'linux-x86_64',
  'windows-aarch64',
  'windows-x86_64',
] as const;
export type PlatformKey = (typeof PLATFORM_KEYS)[number];

const RegistryAgentSchema = z.object({
  id: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9._-]*$/i, 'must be a plain name'),
  name: z.string().trim().min(1),
  version: z.string().trim().min(1),
  description: z.string().default(''),
  repository: z.string().optional(),
  website: z.string().optional(),
  distribution: z.object({
    npx: PackageDistribution.optional(),
    uvx: PackageDistribution.optional(),
    binary: z.record(z.string(), BinaryTarget).optional(),
  }),
});

export type RegistryAgent = z.infer<typeof RegistryAgentSchema>;
export type BinaryTargetSpec = z.infer<typeof BinaryTarget>;
export type PackageSpec = z.infer<typeof PackageDistribution>;

export interface Registry {
  readonly agents: readonly RegistryAgent[];
  /** Entries that could not be read, one line each (the others are still offered). */
  readonly skipped: readonly string[];
}

/** Reads a registry index entry by entry, so one odd agent does not hide the others. */
export function parseRegistry(raw: unknown): Registry {
  const list = z.object({ agents: z.array(z.unknown()) }).safeParse(raw);
  if (!list.success) {
    throw new Error('not an ACP Registry index (no "agents" list)');
  }
  const agents: RegistryAgent[] = [];
  const skipped: string[] = [];
  list.data.agents.forEach((item, index) => {
    const parsed = RegistryAgentSchema.safeParse(item);
    if (parsed.success) {
      agents.push(parsed.data);
    } else {
      skipped.push(
        `agents[${index}]: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
      );
    }
  });
  return { agents, skipped };
}

/** The registry's name for this machine's platform and architecture; undefined where it has none. */
export function platformKey(platform: NodeJS.Platform, arch: string): PlatformKey | undefined {
  const os =
    platform === 'win32' ? 'windows' : platform === 'darwin' || platform === 'linux' ? platform : undefined;
  const cpu = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : undefined;
  return os && cpu ? `${os}-${cpu}` : undefined;
}

/** How an agent can be installed here, in the order we prefer: no download beats a download. */
export type Distribution =
  | { readonly kind: 'npx'; readonly spec: PackageSpec }
  | { readonly kind: 'uvx'; readonly spec: PackageSpec }
  | { readonly kind: 'binary'; readonly spec: BinaryTargetSpec; readonly platform: PlatformKey };

export function distributionFor(
  agent: RegistryAgent,
  platform: PlatformKey | undefined,
): Distribution | undefined {
  const { npx, uvx, binary } = agent.distribution;
  if (npx) {
    return { kind: 'npx', spec: npx };
  }
  const target = platform ? binary?.[platform] : undefined;
  if (target && platform) {
    return { kind: 'binary', spec: target, platform };
  }
  if (uvx) {
    return { kind: 'uvx', spec: uvx };
  }
  return undefined;
}

/** A short label for the picker: "npx", "uvx", "download" (", no checksum" when the registry gives none). */
export function distributionLabel(distribution: Distribution | undefined): string {
  switch (distribution?.kind) {
    case 'npx':
      return 'npx';
    case 'uvx':
      return 'uvx (needs uv)';
    case 'binary':
      // Without a checksum only https vouches for the download: the picker says so before it is chosen.
      return distribution.spec.sha256 ? 'download' : 'download, no checksum';
    default:
      return 'not available for this platform';
  }
}

/** Compares dotted versions numerically ("1.10.0" > "1.9.3"); a suffix compares as text. */
export function isNewerVersion(candidate: string, current: string): boolean {
  const a = candidate.split(/[.+-]/);
  const b = current.split(/[.+-]/);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? '0';
    const y = b[i] ?? '0';
    const nx = Number(x);
    const ny = Number(y);
    if (Number.isInteger(nx) && Number.isInteger(ny)) {
      if (nx !== ny) {
        return nx > ny;
      }
    } else if (x !== y) {
      return x > y;
    }
  }
  return false;
}
