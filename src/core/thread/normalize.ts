import type * as acp from '@agentclientprotocol/sdk';
import { cutText, firstOf, STATE_BOUNDS } from '../session/stateBounds';
import type {
  Attachment,
  AvailableCommand,
  ConfigOption,
  ModeState,
  Notice,
  PermissionOption,
  PlanItem,
  ToolContent,
  ToolKind,
  ToolLocation,
  Usage,
} from './threadTypes';

/*
 * Translation of ACP protocol objects (already validated by the SDK's schemas) into the thread's
 * own types. The one place that knows both vocabularies.
 */

/** A content block's text, or undefined when it is not text (then it becomes an attachment). */
export function textOf(block: acp.ContentBlock): string | undefined {
  return block.type === 'text' ? block.text : undefined;
}

export function attachmentOf(block: acp.ContentBlock): Attachment | undefined {
  switch (block.type) {
    case 'text':
      return undefined;
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: block.uri,
        name: block.name,
        ...(block.title ? { title: block.title } : {}),
      };
    case 'resource': {
      const resource = block.resource;
      const chars = 'text' in resource ? resource.text.length : resource.blob.length;
      return {
        type: 'resource',
        uri: resource.uri,
        chars,
        ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
      };
    }
    case 'image':
      return {
        type: 'image',
        mimeType: block.mimeType,
        bytes: base64Bytes(block.data),
        ...(block.uri ? { uri: block.uri } : {}),
      };
    case 'audio':
      return { type: 'audio', mimeType: block.mimeType, bytes: base64Bytes(block.data) };
    default:
      return assertNever(block);
  }
}

export function toolContentOf(content: acp.ToolCallContent): ToolContent {
  switch (content.type) {
    case 'content': {
      const text = textOf(content.content);
      if (text !== undefined) {
        return { type: 'text', text };
      }
      return { type: 'attachment', attachment: attachmentOf(content.content) as Attachment };
    }
    case 'diff':
      return { type: 'diff', path: content.path, oldText: content.oldText ?? null, newText: content.newText };
    case 'terminal':
      return { type: 'terminal', terminalId: content.terminalId };
    default:
      return assertNever(content);
  }
}

export function locationOf(location: acp.ToolCallLocation): ToolLocation {
  // 1-based; some agents send 0 for "no particular line".
  return typeof location.line === 'number' && location.line >= 1
    ? { path: location.path, line: location.line }
    : { path: location.path };
}

export function toolKindOf(kind: acp.ToolKind | null | undefined): ToolKind {
  return kind ?? 'other';
}

export function permissionOptionOf(option: acp.PermissionOption): PermissionOption {
  return { optionId: option.optionId, name: option.name, kind: option.kind };
}

/** The plan, bounded: a cut plan ends with a line saying how many steps are not shown. */
export function planOf(plan: acp.Plan): PlanItem[] {
  const kept = firstOf(plan.entries, STATE_BOUNDS.planEntries).map((entry): PlanItem => ({
    content: cutText(entry.content),
    priority: entry.priority,
    status: entry.status,
  }));
  const omitted = plan.entries.length - kept.length;
  if (omitted > 0) {
    kept.push({
      content: `… ${omitted.toLocaleString('en')} more steps not shown`,
      priority: 'low',
      status: 'pending',
    });
  }
  return kept;
}

export function commandsOf(update: acp.AvailableCommandsUpdate): AvailableCommand[] {
  return firstOf(update.availableCommands, STATE_BOUNDS.commands).map((command) => {
    const hint = command.input && 'hint' in command.input ? command.input.hint : undefined;
    return {
      name: cutText(command.name, STATE_BOUNDS.titleChars),
      description: cutText(command.description),
      ...(hint ? { inputHint: cutText(hint) } : {}),
    };
  });
}

export function modesOf(state: acp.SessionModeState): ModeState {
  return {
    currentModeId: state.currentModeId,
    available: firstOf(state.availableModes, STATE_BOUNDS.modes).map((mode) => ({
      id: mode.id,
      name: cutText(mode.name, STATE_BOUNDS.titleChars),
      ...(mode.description ? { description: cutText(mode.description) } : {}),
    })),
  };
}

export function configOptionsOf(options: readonly acp.SessionConfigOption[]): ConfigOption[] {
  return firstOf(options, STATE_BOUNDS.configOptions).map((option) => {
    const base = {
      id: option.id,
      name: cutText(option.name, STATE_BOUNDS.titleChars),
      ...(option.description ? { description: cutText(option.description) } : {}),
      ...(option.category ? { category: option.category } : {}),
    };
    if (option.type === 'boolean') {
      return { ...base, type: 'boolean', currentValue: option.currentValue };
    }
    const choices: ConfigChoice[] = [];
    for (const item of option.options) {
      for (const choice of 'group' in item ? item.options : [item]) {
        if (choices.length >= STATE_BOUNDS.choices) {
          break;
        }
        choices.push({ ...choiceOf(choice), ...('group' in item ? { group: cutText(item.name) } : {}) });
      }
    }
    return { ...base, type: 'select', currentValue: option.currentValue, choices };
  });
}

interface ConfigChoice {
  value: string;
  name: string;
  description?: string;
  group?: string;
}

/** How many choices the agent sent for its select options (before they were bounded). */
export function choiceCount(options: readonly acp.SessionConfigOption[]): number {
  let count = 0;
  for (const option of options) {
    if (option.type !== 'boolean') {
      for (const item of option.options) {
        count += 'group' in item ? item.options.length : 1;
      }
    }
  }
  return count;
}

function choiceOf(choice: acp.SessionConfigSelectOption): ConfigChoice {
  return {
    // The value is sent back as is: never cut.
    value: choice.value,
    name: cutText(choice.name, STATE_BOUNDS.titleChars),
    ...(choice.description ? { description: cutText(choice.description) } : {}),
  };
}

export function usageOf(update: acp.UsageUpdate): Usage {
  return {
    used: update.used,
    size: update.size,
    ...(update.cost ? { cost: { amount: update.cost.amount, currency: update.cost.currency } } : {}),
  };
}

export function noticeOf(notice: acp.Notice): Notice {
  const severity = notice.severity === 'error' || notice.severity === 'warning' ? notice.severity : 'info';
  return {
    severity,
    title: cutText(notice.title, STATE_BOUNDS.textChars),
    ...(notice.description ? { description: cutText(notice.description, 20_000) } : {}),
  };
}

/** Decoded size of base64 data, without decoding it. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
