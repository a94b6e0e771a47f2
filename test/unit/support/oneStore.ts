import type { CheckpointWorkspace } from '../../../src/features/checkpoints/chat/checkpointWorkspace';
import type { CheckpointStore } from '../../../src/features/checkpoints/core/types';
import { RunningTurns } from '../../../src/features/workspace/chat/runningTurns';

/**
 * A workspace of fixed folders that is always trusted and never full: the store `open` makes, opened on
 * first use — for tests of the change review itself (the workspace service has its own tests).
 */
export function oneStore(open: () => Promise<CheckpointStore>): CheckpointWorkspace {
  let opened: Promise<CheckpointStore> | undefined;
  return {
    store: () => (opened ??= open()),
    mayCheckpoint: async () => undefined,
    onDidChange: () => ({ dispose: () => undefined }),
    running: new RunningTurns(),
  };
}
