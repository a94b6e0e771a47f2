import { ChangeReview, type ChangeReviewOptions } from '../../../src/features/checkpoints/chat/changeReview';
import { createCheckpointStore } from '../../../src/features/checkpoints/core';
import { silentLogger } from '../../../src/core/ports';
import { NodeWorkspaceChanges } from './nodeWorkspaceChanges';
import type { CheckpointWorkspace } from '../../../src/features/checkpoints/chat/checkpointWorkspace';
import type { CheckpointStore } from '../../../src/features/checkpoints/core/types';
import { RunningTurns } from '../../../src/features/checkpoints/chat/runningTurns';
import { ChatHarness, testAgent } from './chatHarness';
import { perTest } from '../../support/perTest';

/**
 * A workspace of fixed folders that is always trusted and never full: the store `open` makes, opened on
 * first use — for tests of the change review itself (the workspace service has its own tests).
 */
export function oneStore(open: () => Promise<CheckpointStore>): CheckpointWorkspace {
  let opened: Promise<CheckpointStore> | undefined;
  const store = (): Promise<CheckpointStore> => (opened ??= open());
  return {
    store,
    checkpointStore: store,
    onDidChange: () => ({ dispose: () => undefined }),
    running: new RunningTurns(),
  };
}

/** How `gitChangeReview` differs from the default. */
export interface GitChangeReviewOptions {
  readonly review?: Partial<ChangeReviewOptions>;
  /** The git the store runs (a wrapper script, a missing one). */
  readonly git?: string;
  /** Wraps the opened store (a checkpoint that fails, or waits as long as the test wants). */
  readonly wrap?: (store: CheckpointStore) => CheckpointStore;
}

/**
 * The change review of a chat harness over real git: checkpoints of `dir` kept in `storageDir`, files put
 * back on disk by `port` (handed to `onPort`, so a test can answer its dialogs).
 */
export function gitChangeReview(
  dir: string,
  storageDir: string,
  onPort: (port: NodeWorkspaceChanges) => void,
  options: GitChangeReviewOptions = {},
): ChangeReview {
  const port = new NodeWorkspaceChanges(dir);
  onPort(port);
  const open = async (): Promise<CheckpointStore> => {
    const store = await createCheckpointStore({
      folders: [dir],
      storageDir,
      logger: silentLogger,
      ...(options.git === undefined ? {} : { git: options.git }),
    });
    return options.wrap ? options.wrap(store) : store;
  };
  return new ChangeReview(oneStore(open), port, silentLogger, options.review);
}

/**
 * A chat of the test agent whose change review runs over real git (`gitChangeReview`) and refreshes its
 * live rows every 20 ms, so a test sees a running turn's files without waiting.
 */
export function reviewedChat(
  onPort: (port: NodeWorkspaceChanges) => void,
  options: Omit<GitChangeReviewOptions, 'review'> = {},
): ChatHarness {
  return new ChatHarness({
    agents: [testAgent('a')],
    changes: (dir, storage) =>
      gitChangeReview(dir, storage, onPort, { ...options, review: { liveRefreshMs: 20 } }),
  });
}

/**
 * Per test: a `reviewedChat`, disposed after the test; `port` is its workspace-changes port (the questions
 * it asks and the answers a test gives), made with the chat's change review.
 */
export function useReviewedChat(): { readonly chat: ChatHarness; readonly port: NodeWorkspaceChanges } {
  let port: NodeWorkspaceChanges | undefined;
  const chat = perTest(
    'the reviewed chat',
    () => reviewedChat((made) => (port = made)),
    (made) => made.dispose(),
  );
  return {
    get chat() {
      return chat.value;
    },
    get port() {
      if (port === undefined) {
        throw new Error('the chat has not made its change review yet');
      }
      return port;
    },
  };
}
