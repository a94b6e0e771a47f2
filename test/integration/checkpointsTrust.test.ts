/**
 * Issue 18, in the real VS Code with workspace trust on (`ACP_TRUST=untrusted node scripts/testIntegration.mjs`):
 * in Restricted Mode nothing of checkpoints runs — the chat opens (which warms the store up in a trusted
 * workspace) and a checkpoint is asked for, yet no checkpoint storage is created and the reason is given.
 * Registered only in that run (the launcher greps for "Restricted Mode").
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpAgentsApi } from '../../src/chatHost';
import { storageDirs } from '../../src/features/checkpoints/core/storagePolicy';
import { getApi, showChatView } from './support/harness';

if (process.env.ACP_TRUST === 'untrusted') {
  describe('Restricted Mode: no checkpoint is taken and no checkpoint storage is created (issue 18)', () => {
    let api: AcpAgentsApi;

    before(async () => {
      api = await getApi();
    });

    it('opening the chat and asking for a checkpoint run no git and create no storage', async () => {
      assert.equal(vscode.workspace.isTrusted, false);
      await showChatView();
      await vscode.commands.executeCommand('acpAgents.newChat');
      const result = await api.checkpoints.changes.checkpoint();
      assert.deepEqual(result, {
        problem: 'No checkpoint for this turn: the workspace is not trusted (Restricted Mode)',
      });
      await assert.rejects(api.checkpoints.workspace.store(), /not trusted/);
      const candidates = api.checkpoints.workspace.storageCandidates();
      assert.ok(candidates.length > 0);
      // Wherever the rules could put it (the workspace's storage, or a folder of the global storage).
      for (const dir of storageDirs(candidates)) {
        assert.equal(existsSync(path.join(dir, 'checkpoints')), false, `checkpoint storage in ${dir}`);
      }
    });
  });
}
