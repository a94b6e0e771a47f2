import { strict as assert } from 'node:assert';
import {
  PermissionRules,
  type PermissionRule,
  type PermissionSettings,
} from '../../../src/features/permissions/core/permissionRules';
import type { PermissionPrompt } from '../../../src/core/ports';
import type { ToolKind } from '../../../src/core/thread/threadTypes';

function prompt(toolKind: ToolKind, agentId = 'copilot'): PermissionPrompt {
  return {
    agentId,
    sessionId: 's',
    key: 'perm-1',
    toolCall: {
      kind: 'tool_call',
      id: 'e1',
      toolCallId: 'c1',
      title: 'Tool',
      toolKind,
      status: 'pending',
      content: [],
      locations: [],
    },
    options: [
      { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      { optionId: 'never', name: 'Always reject', kind: 'reject_always' },
    ],
  };
}

class MemoryStore {
  rules: PermissionRule[] = [];
  load(): readonly PermissionRule[] {
    return this.rules;
  }
  async save(rules: readonly PermissionRule[]): Promise<void> {
    this.rules = [...rules];
  }
}

describe('permission rules', () => {
  let settings: PermissionSettings;
  let store: MemoryStore;
  let rules: PermissionRules;
  beforeEach(() => {
    settings = { autoApproveReads: false, rememberInWorkspace: false };
    store = new MemoryStore();
    rules = new PermissionRules(() => settings, store);
  });

  it('asks a person when nothing is remembered', () => {
    assert.equal(rules.decide(prompt('edit')), undefined);
  });

  it('remembers "always allow" per agent and tool kind for the session', async () => {
    await rules.remember(prompt('edit'), { outcome: 'selected', optionId: 'always' });
    assert.deepEqual(rules.decide(prompt('edit')), {
      decision: { outcome: 'selected', optionId: 'always' },
      reason: 'remembered: always allow edit',
    });
    assert.equal(rules.decide(prompt('execute')), undefined);
    assert.equal(rules.decide(prompt('edit', 'claude')), undefined);
    assert.deepEqual(store.rules, []);
  });

  it('remembers "always reject" and ignores one-off answers', async () => {
    await rules.remember(prompt('execute'), { outcome: 'selected', optionId: 'never' });
    await rules.remember(prompt('edit'), { outcome: 'selected', optionId: 'once' });
    await rules.remember(prompt('read'), { outcome: 'cancelled' });
    assert.deepEqual(rules.decide(prompt('execute'))?.decision, {
      outcome: 'selected',
      optionId: 'never',
    });
    assert.equal(rules.decide(prompt('edit')), undefined);
    assert.equal(rules.decide(prompt('read')), undefined);
  });

  it('keeps always-answers in the workspace store when asked to, replacing an older answer', async () => {
    settings = { autoApproveReads: false, rememberInWorkspace: true };
    await rules.remember(prompt('edit'), { outcome: 'selected', optionId: 'never' });
    await rules.remember(prompt('edit'), { outcome: 'selected', optionId: 'always' });
    assert.deepEqual(store.rules, [{ agentId: 'copilot', toolKind: 'edit', decision: 'allow' }]);
    // A new session (new rules object) over the same store still knows it.
    const later = new PermissionRules(() => settings, store);
    assert.deepEqual(later.decide(prompt('edit'))?.decision, {
      outcome: 'selected',
      optionId: 'always',
    });
    await later.clear();
    assert.deepEqual(store.rules, []);
    assert.equal(later.decide(prompt('edit')), undefined);
  });

  it('auto-approves reads and searches only when the setting is on', () => {
    assert.equal(rules.decide(prompt('read')), undefined);
    settings = { autoApproveReads: true, rememberInWorkspace: false };
    assert.deepEqual(rules.decide(prompt('read')), {
      decision: { outcome: 'selected', optionId: 'once' },
      reason: 'reads are auto-approved (read)',
    });
    assert.deepEqual(rules.decide(prompt('search'))?.decision, {
      outcome: 'selected',
      optionId: 'once',
    });
    assert.equal(rules.decide(prompt('edit')), undefined);
  });
});
