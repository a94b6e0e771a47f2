import * as z from 'zod/mini';
import type { DeepReadonly } from './deepReadonly';

/*
 * A chat in its own git worktree: what its header shows, and what the view asks of it. Paths and names
 * come from the disk and git: bounded.
 */

/** What a worktree holds against the commit it was made from. */
export const WorktreeChangesSchema = z.object({
  files: z.int().check(z.nonnegative()),
  added: z.int().check(z.nonnegative()),
  removed: z.int().check(z.nonnegative()),
  /** Work that was never applied to the folder it came from (Discard would lose it). */
  unapplied: z.boolean(),
});

/** A chat's worktree, as its header shows it. */
export const WorktreeInfoSchema = z.object({
  /** The worktree's folder (absolute): the chat's agent works there. */
  folder: z.string().check(z.maxLength(4_096)),
  /** Its folder's name. */
  name: z.string().check(z.maxLength(300)),
  branch: z.string().check(z.maxLength(300)),
  /** The commit it was made from, short. */
  base: z.string().check(z.maxLength(64)),
  /** Counted after each turn and each step (absent until then). */
  changes: z.optional(WorktreeChangesSchema),
  /** Why the chat cannot work in it now (it is gone, another window writes it). */
  problem: z.optional(z.string().check(z.maxLength(500))),
  /** A step under way: making it, applying, committing, discarding. */
  busy: z.optional(z.string().check(z.maxLength(100))),
});

/** For an empty chat: whether it can start in a new worktree (a git repository, a trusted workspace), or why not. */
export const WorktreeOfferSchema = z.object({
  available: z.boolean(),
  reason: z.optional(z.string().check(z.maxLength(500))),
});

/** The view's chat's worktree changed (absent: the chat has none), or what is offered to an empty chat. */
export const WorktreeMessageSchema = z.object({
  type: z.literal('worktree'),
  chatId: z.string(),
  worktree: z.optional(WorktreeInfoSchema),
  offer: z.optional(WorktreeOfferSchema),
});

export const WORKTREE_ACTIONS = [
  /** Start the (empty) chat in a new worktree. */
  'create',
  /** Bring the work back into the folder it came from (a three-way merge). */
  'apply',
  'open_window',
  'commit',
  'discard',
  /** The worktree's changes in the multi-file diff editor. */
  'show_changes',
  /** "Ask several agents…": one prompt to several agents, each in a new worktree chat, and their comparison. */
  'ask_several',
] as const;

export const WorktreeActionSchema = z.object({
  type: z.literal('worktree_action'),
  action: z.enum(WORKTREE_ACTIONS),
});

export type WorktreeInfo = DeepReadonly<z.infer<typeof WorktreeInfoSchema>>;
export type WorktreeOffer = DeepReadonly<z.infer<typeof WorktreeOfferSchema>>;
export type WorktreeChangesInfo = DeepReadonly<z.infer<typeof WorktreeChangesSchema>>;
export type WorktreeAction = (typeof WORKTREE_ACTIONS)[number];
