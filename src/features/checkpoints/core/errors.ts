/**
 * A checkpoint id this store does not know: never created here, from another workspace, or pruned
 * (only the newest checkpoints of each folder are kept). Nothing can be listed or restored from it.
 */
export class CheckpointNotFoundError extends Error {
  constructor(readonly checkpointId: string) {
    super(
      `Checkpoint ${checkpointId} is not available (it was not made here or is too old and was removed).`,
    );
    this.name = 'CheckpointNotFoundError';
  }
}
