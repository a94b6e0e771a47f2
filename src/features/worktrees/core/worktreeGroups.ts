import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as z from 'zod/mini';

/** How many agents one prompt goes to, at least and at most ("Ask several agents…"). */
export const GROUP_SIZE = { min: 2, max: 6 } as const;
/** How many groups are kept (the newest); an older group's chats and worktrees stay, only the grouping goes. */
export const MAX_GROUPS = 20;
/** How much of the prompt a group keeps, to name it. */
export const MAX_GROUP_PROMPT = 500;
const MAX_REASON = 500;

const ID = /^[A-Za-z0-9_-]+$/;

const MemberSchema = z.object({
  chatId: z.string().check(z.regex(ID)),
  agentId: z.string().check(z.maxLength(200)),
  agentLabel: z.string().check(z.maxLength(200)),
  /** Why this agent's run failed before its turn could start (no worktree, the agent did not start). */
  failure: z.optional(z.string().check(z.maxLength(MAX_REASON))),
});

const GroupSchema = z.object({
  id: z.string().check(z.regex(ID)),
  /** The start of the prompt every agent was sent. */
  prompt: z.string().check(z.maxLength(MAX_GROUP_PROMPT)),
  createdAt: z.number(),
  members: z.array(MemberSchema).check(z.minLength(1), z.maxLength(GROUP_SIZE.max)),
});

const GroupsFileSchema = z.object({ groups: z.array(z.unknown()).check(z.maxLength(MAX_GROUPS * 4)) });

export type GroupMember = z.infer<typeof MemberSchema>;
export type WorktreeGroup = z.infer<typeof GroupSchema>;

/** A member's failure as stored: one line, bounded. */
export function failureText(reason: string): string {
  const line = reason.replace(/\s+/g, ' ').trim();
  return line.length > MAX_REASON ? `${line.slice(0, MAX_REASON - 1)}…` : line;
}

/** A group's prompt as stored: bounded. */
export function groupPrompt(prompt: string): string {
  const text = prompt.trim();
  return text.length > MAX_GROUP_PROMPT ? `${text.slice(0, MAX_GROUP_PROMPT - 1)}…` : text;
}

/**
 * Which chats were asked one prompt together, beside the worktree records (each record carries its
 * group's id too): one JSON file in the workspace's storage, the newest `MAX_GROUPS` groups, written
 * whole (a temporary file renamed over it), read back as untrusted input (a group that does not parse
 * is dropped, the others kept).
 */
export class WorktreeGroupStore {
  private readonly file: string;

  constructor(storageDir: string) {
    this.file = path.join(storageDir, 'worktree-groups.json');
  }

  async all(): Promise<WorktreeGroup[]> {
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(this.file, 'utf8'));
    } catch {
      return [];
    }
    const parsed = GroupsFileSchema.safeParse(raw);
    if (!parsed.success) {
      return [];
    }
    return newestFirst(
      parsed.data.groups.flatMap((group) => {
        const one = GroupSchema.safeParse(group);
        return one.success ? [one.data] : [];
      }),
    );
  }

  /** Writes `groups`, the newest `MAX_GROUPS` of them; resolves with those kept. */
  async save(groups: readonly WorktreeGroup[]): Promise<WorktreeGroup[]> {
    const kept = newestFirst(groups.map((group) => GroupSchema.parse(group)));
    await mkdir(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${randomUUID()}.tmp`;
    await writeFile(temporary, JSON.stringify({ groups: kept }), 'utf8');
    await rename(temporary, this.file);
    return kept;
  }
}

function newestFirst(groups: WorktreeGroup[]): WorktreeGroup[] {
  const unique = new Map<string, WorktreeGroup>();
  for (const group of groups) {
    unique.set(group.id, group);
  }
  return [...unique.values()].sort((a, b) => b.createdAt - a.createdAt).slice(0, MAX_GROUPS);
}
