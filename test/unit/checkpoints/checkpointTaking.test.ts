import { strict as assert } from 'node:assert';
import { silentLogger } from '../../../src/core/ports';
import { CheckpointTaking } from '../../../src/features/checkpoints/chat/checkpointTaking';
import type { CheckpointWorkspace } from '../../../src/features/checkpoints/chat/checkpointWorkspace';
import type { WorkspaceChangesPort } from '../../../src/features/checkpoints/chat/workspaceChanges';
import type { CheckpointStore } from '../../../src/features/checkpoints/core/types';
import { collectGarbage } from '../../support/collectGarbage';

describe('the checkpoint before a prompt: its time limit', () => {
  it('holds the prompt back no longer than the limit, also when Stop may end it and memory is collected meanwhile', async () => {
    let created = 0;
    // A store whose checkpoint is never done (a huge folder on a busy machine).
    const store = {
      coverage: 'full',
      create: () => {
        created++;
        setImmediate(collectGarbage); // once the wait for it has begun
        return new Promise<string>(() => undefined);
      },
    } as unknown as CheckpointStore;
    const taking = new CheckpointTaking({
      stores: { mayCheckpoint: () => Promise.resolve() } as unknown as CheckpointWorkspace,
      store: () => Promise.resolve(store),
      workspace: { inform: () => undefined } as unknown as WorkspaceChangesPort,
      logger: silentLogger,
      timeoutMs: 50,
    });
    const stop = new AbortController();
    const outcome = await taking.take(stop.signal);
    assert.equal(created, 1);
    assert.ok('problem' in outcome && outcome.late !== undefined, JSON.stringify(outcome));
    assert.match(outcome.problem, /still being taken after 0 s/);
  });
});
