import type { Logger } from '../../../core/ports';
import type { Clock } from '../../../core/util/clock';
import type { AnswerTimer } from './stampTaker';

/** What a shadow repository is opened with (`ShadowRepo.open`). */
export interface ShadowRepoOptions {
  readonly git: string;
  /** The workspace folder (absolute): the work tree. */
  readonly folder: string;
  /** The shadow repository's directory (GIT_DIR). */
  readonly gitDir: string;
  /** Files above this are not snapshotted. */
  readonly maxFileBytes: number;
  /** Binary files above this are not snapshotted. */
  readonly maxBinaryBytes: number;
  /** How many checkpoints keep a ref; older ones become unreachable and are collected by `git gc`. */
  readonly keepCheckpoints: number;
  readonly logger: Logger;
  /** How long one git command may run (default 120 s). */
  readonly gitTimeoutMs?: number;
  /** The wall clock, in ms (tests run it ahead, so that stamps just taken count as settled). */
  readonly now?: () => number;
  /** Times the wait for a save held half way (see ./folderStamps); tests move it by hand. */
  readonly clock?: Clock;
  /** Starts the wait for the folder stamps' answer (see ./stampTaker); tests expire it at will. */
  readonly stampAnswerTimer?: AnswerTimer;
  /** `gc.auto`: loose objects that make the repository due for packing (default git's, 6,700). */
  readonly packLooseObjects?: number;
}
