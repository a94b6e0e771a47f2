import * as z from 'zod/mini';
import type * as vscode from 'vscode';
import { ToolKindSchema } from '../../../protocol';
import { acpSetting } from '../../../vscode/settings';
import type { PermissionRule, PermissionSettings, RuleStore } from '../core/permissionRules';

const PermissionSettingsSchema = z.object({
  autoApproveReads: z.catch(z.boolean(), false),
  rememberInWorkspace: z.catch(z.boolean(), true),
});

/** `acpAgents.permissions.autoApproveReads` and `.rememberInWorkspace`, validated (a bad value: the default). */
export function permissionSettings(): PermissionSettings {
  return PermissionSettingsSchema.parse({
    autoApproveReads: acpSetting('permissions.autoApproveReads'),
    rememberInWorkspace: acpSetting('permissions.rememberInWorkspace'),
  });
}

/** `acpAgents.permissions.ask`: where permission requests are asked. */
export function permissionSurface(): 'auto' | 'modal' | 'inline' {
  const value = acpSetting('permissions.ask');
  return value === 'modal' || value === 'inline' ? value : 'auto';
}

const RulesSchema = z.array(
  z.object({
    agentId: z.string(),
    toolKind: ToolKindSchema,
    decision: z.enum(['allow', 'reject']),
  }),
);

/** "Always" answers kept in the workspace's storage (parsed on load: storage is data, not trusted code). */
export function workspaceRuleStore(state: vscode.Memento): RuleStore {
  const KEY = 'acpAgents.permissionRules';
  return {
    load(): readonly PermissionRule[] {
      const parsed = RulesSchema.safeParse(state.get(KEY));
      return parsed.success ? parsed.data : [];
    },
    async save(rules) {
      await state.update(KEY, rules);
    },
  };
}
