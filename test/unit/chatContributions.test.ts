import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { ChatContext, ChatContribution, ChatContributionFactory } from '../../src/chat/chatContribution';
import { WorktreeActions } from '../../src/features/worktrees/chat/worktreeActions';
import { WorktreeChats } from '../../src/features/worktrees/chat/worktreeChats';
import { RepositoryOffers } from '../../src/features/worktrees/chat/worktreeOffers';
import { worktreesContribution } from '../../src/features/worktrees/chat/worktreesContribution';
import { WorktreeLocks } from '../../src/features/worktrees/core/worktreeLocks';
import { ChatContributions } from '../../src/chat/chatContributions';
import { BASE_VIEW_MESSAGES } from '../../src/chat/viewMessageHandler';
import { ViewMessageSchema } from '../../src/protocol';
import { ChatHarness, testAgent } from './support/chatHarness';
import { gitChangeReview } from './support/oneStore';
import { RecordingLogger } from './support/testAgent';
import { ownedPerTest } from '../support/ownedPerTest';
import { ScriptedWorktreeUi } from './worktrees/support/scriptedUi';

/** Every view message type the protocol has. */
const viewMessageTypes: string[] = ViewMessageSchema.def.options.flatMap((option) => [
  ...option.def.shape.type.def.values,
]);

describe('the chat contribution point', () => {
  const context = {} as ChatContext;

  it('refuses a feature answering a view message the base or another feature already answers', () => {
    const contributions = new ChatContributions(new RecordingLogger(), new Set(BASE_VIEW_MESSAGES));
    const fork = (id: string): ChatContribution => ({ id, viewMessages: { edit_resend: () => undefined } });
    assert.throws(
      () => contributions.build([() => fork('a'), () => fork('b')], context),
      /b answers 'edit_resend', which a already answers/,
    );
    assert.throws(
      () => contributions.build([() => ({ id: 'c', viewMessages: { send: () => undefined } })], context),
      /c answers 'send', which the chat already answers/,
    );
  });

  it('calls every contribution in order, and one that throws neither stops the others nor the caller', async () => {
    const logger = new RecordingLogger();
    const contributions = new ChatContributions(logger, new Set(BASE_VIEW_MESSAGES));
    const calls: string[] = [];
    contributions.build(
      [
        () => ({
          id: 'broken',
          viewReady: () => {
            throw new Error('bug in a feature');
          },
          beforePrompt: () => Promise.reject(new Error('no checkpoint store')),
          viewState: () => {
            throw new Error('bad state');
          },
        }),
        () => ({
          id: 'fine',
          viewReady: () => void calls.push('fine'),
          beforePrompt: async () => ({ checkpointProblem: 'said why' }),
          viewState: () => ({ currentFile: { uri: 'file:///a', name: 'a', kind: 'file' } }),
        }),
      ],
      context,
    );
    contributions.viewReady({} as never);
    assert.deepEqual(calls, ['fine']);
    assert.deepEqual(await contributions.beforePrompt({} as never, new AbortController().signal), {
      checkpointProblem: 'said why',
    });
    assert.deepEqual(contributions.viewState(undefined), {
      currentFile: { uri: 'file:///a', name: 'a', kind: 'file' },
    });
    const errors = logger.messages('error').join('\n');
    assert.match(errors, /broken failed in viewReady: Error: bug in a feature/);
    assert.match(errors, /broken failed before a prompt: Error: no checkpoint store/);
    assert.match(errors, /broken failed in viewState: Error: bad state/);
  });

  describe('composed as the product composes it (every feature that runs without VS Code)', () => {
    const owned = ownedPerTest();

    it('answers every view message of the protocol: the base or exactly one feature', async () => {
      const chat = owned(new ChatHarness({
        agents: [testAgent('a')],
        changes: (dir, storageDir) => gitChangeReview(dir, storageDir, () => undefined),
        diagnostics: () => ({
          problems: () => [],
          onDidChange: () => ({ dispose: () => undefined }),
          check: async () => undefined,
          relativePath: (path) => path,
        }),
        currentFile: { current: () => undefined, onDidChange: () => ({ dispose: () => undefined }) },
        moreContributions: (harness) => [worktreesOf(harness.storageDir, owned)],
      }));
      const answered = new Set([...BASE_VIEW_MESSAGES, ...chat.controller.answeredByFeatures()]);
      const editReviewOnly = new Set(['answer_review']); // its port is VS Code's diff editor
      const unanswered = viewMessageTypes.filter((type) => !answered.has(type) && !editReviewOnly.has(type));
      assert.deepEqual(unanswered, []);
    });
  });
});

/** The worktrees feature over a storage folder (no worktree made): its contribution, owned by the test. */
function worktreesOf(storageDir: string, owned: <T extends { dispose(): unknown }>(value: T) => T): ChatContributionFactory {
  const locks = owned(new WorktreeLocks(path.join(storageDir, 'worktree-locks')));
  const logger = new RecordingLogger();
  const worktrees = owned(
    new WorktreeChats({
      trusted: () => true,
      workspaceFolders: () => [],
      storageDir: path.join(storageDir, 'worktrees'),
      workDir: path.join(storageDir, 'worktrees-work'),
      git: async () => 'git',
      locks,
      settings: () => ({ include: [] }),
      logger,
    }),
  );
  const actions = new WorktreeActions(worktrees, new ScriptedWorktreeUi(), logger);
  return worktreesContribution(worktrees, actions, new RepositoryOffers(worktrees, () => true));
}
