import type { AgentSessionGroup, ConfigOptionMessage, ViewMessage } from '../../src/protocol';
import type { ChatStore } from '../store';
import { ChatList } from './chatList';
import { checkbox, el, icon } from './dom';
import { sessionSettings } from './sessionSettings';
import { UsageMeter } from './usage';

interface Choice {
  readonly value: string;
  readonly label: string;
  readonly description?: string;
}

/**
 * Under the view's title: the pickers (agent, mode, the agent's config options) and the usage meter, and
 * the chat list the title's Show Chats opens. The chat's actions — New Chat, Show Chats, Open in Editor,
 * the agent log — are VS Code's own, in the view's (or the chat tab's) title, which also names the chat, as
 * Copilot Chat does: one header, not two. The chat's title stays here for screen readers only.
 * Pickers are rebuilt only when their choices change; otherwise only the value is set, so an open
 * dropdown is not torn down by an unrelated update.
 */
export class Header {
  readonly element: HTMLElement;
  private readonly title = el('h1', 'session-title visually-hidden');
  private readonly controls = el('div', 'pickers');
  private readonly usage = new UsageMeter();
  private readonly chatList: ChatList;
  private controlsKey = '';

  constructor(
    private readonly post: (message: ViewMessage) => boolean,
    /** Where focus goes when the chat list closes and nothing in the page had it before. */
    focusHome: () => void,
  ) {
    this.chatList = new ChatList(post, focusHome);
    this.element = el(
      'header',
      'chat-header',
      this.title,
      el('div', 'header-controls', this.controls, this.usage.element),
      this.chatList.element,
    );
  }

  /** The title's Show Chats: opens the chat list, or closes it when it is open. */
  toggleChatList(): void {
    this.chatList.toggle();
  }

  /** A page of the agents' own sessions, for the chat list. */
  agentSessions(groups: readonly AgentSessionGroup[]): void {
    this.chatList.applyAgentSessions(groups);
  }

  update(store: ChatStore): void {
    this.chatList.update(store.chats, store.chatId);
    const title = store.activeChat?.title.trim() || store.state.title?.trim() || 'New chat';
    if (this.title.textContent !== title) {
      this.title.textContent = title;
      this.title.title = title;
    }
    this.usage.update(store.state.usage);

    const pickers: { key: string; build: () => HTMLElement }[] = [];
    if (store.agents.length > 0) {
      const choices = store.agents.map((agent) => ({
        value: agent.id,
        label: agent.label,
        ...(agent.description ? { description: agent.description } : {}),
      }));
      const selected = store.selectedAgent?.id ?? '';
      pickers.push({
        key: `agent:${JSON.stringify(choices)}:${selected}`,
        build: () =>
          picker('Agent', choices, selected, (agentId) => this.post({ type: 'select_agent', agentId })),
      });
    }
    if (store.workspaceFolders.length > 1) {
      pickers.push(folderPicker(store, (folder) => this.post({ type: 'set_chat_folder', folder })));
    }
    const settings = sessionSettings(store.state);
    const modes = settings.modes;
    if (modes && modes.available.length > 0) {
      const choices = modes.available.map((mode) => ({
        value: mode.id,
        label: mode.name,
        ...(mode.description ? { description: mode.description } : {}),
      }));
      pickers.push({
        key: `mode:${JSON.stringify(choices)}:${modes.currentModeId}`,
        build: () =>
          picker('Mode', choices, modes.currentModeId, (modeId) => this.post({ type: 'set_mode', modeId })),
      });
    }
    for (const option of settings.configOptions) {
      pickers.push({ key: `config:${JSON.stringify(option)}`, build: () => this.configPicker(option) });
    }

    // Values are part of the key: a picker whose value the host changed is rebuilt, which also
    // puts it back if the host refused the user's choice.
    const key = pickers.map((item) => item.key).join('\n');
    if (key !== this.controlsKey) {
      this.controlsKey = key;
      this.controls.replaceChildren(...pickers.map((item) => item.build()));
    }
    this.controls.hidden = pickers.length === 0;
    // Nothing to show: no empty bar under the view's title.
    this.element.classList.toggle('chat-header-empty', this.controls.hidden && this.usage.element.hidden);
  }

  private configPicker(option: ConfigOptionMessage): HTMLElement {
    if (option.type === 'boolean') {
      const box = checkbox(
        option.name,
        option.currentValue,
        (checked) => this.post({ type: 'set_config_option', configId: option.id, value: checked }),
        option.description,
      );
      return el('div', 'picker picker-boolean', box);
    }
    const choices = option.choices.map((choice) => ({
      value: choice.value,
      label: choice.name,
      ...(choice.description ? { description: choice.description } : {}),
    }));
    return picker(option.name, choices, option.currentValue, (value) =>
      this.post({ type: 'set_config_option', configId: option.id, value }),
    );
  }
}

/**
 * Multi-root: which folder the chat's agent works in (its `cwd`; the others go along). A picker while the
 * chat is empty, then the folder's name alone: a chat keeps its folder.
 */
function folderPicker(
  store: ChatStore,
  choose: (folder: string) => void,
): { key: string; build: () => HTMLElement } {
  const folders = store.workspaceFolders;
  const current =
    store.chatCwd !== undefined && folders.includes(store.chatCwd) ? store.chatCwd : (folders[0] ?? '');
  const name = (folder: string): string => folder.split(/[\\/]/).filter(Boolean).at(-1) ?? folder;
  const fixed = store.entries.length > 0;
  const key = `folder:${JSON.stringify(folders)}:${current}:${fixed}`;
  if (fixed) {
    return {
      key,
      build: () => {
        const label = el('span', 'picker folder-label', icon('folder'), el('span', '', name(current)));
        label.title = `The agent works in ${current}`;
        return label;
      },
    };
  }
  const choices = folders.map((folder) => ({ value: folder, label: name(folder), description: folder }));
  return { key, build: () => picker('Folder', choices, current, choose) };
}

/**
 * A native select that reports only choices the user makes. Native rather than
 * vscode-single-select (≈ 50 KiB of the bundle with its list, filter and scrollable): VS Code draws
 * its own selects natively on macOS too. No visible caption (the sidebar is narrow): the
 * accessible label and the tooltip name it; a choice's description is its option's tooltip.
 */
function picker(
  label: string,
  choices: readonly Choice[],
  value: string,
  onPick: (value: string) => void,
): HTMLElement {
  const select = el('select', 'picker-select');
  select.setAttribute('aria-label', label);
  const current = choices.find((choice) => choice.value === value);
  select.title = current
    ? [`${label}: ${current.label}`, current.description].filter(Boolean).join('\n')
    : label;
  for (const choice of choices) {
    const option = new Option(choice.label, choice.value, false, choice.value === value);
    if (choice.description) {
      option.title = choice.description;
    }
    select.append(option);
  }
  if (!current) {
    // A value the agent did not list: shown as nothing chosen rather than as the first choice.
    select.selectedIndex = -1;
  }
  select.addEventListener('change', () => {
    if (select.value !== value) {
      onPick(select.value);
    }
  });
  const wrapper = el('div', 'picker picker-choice', select, icon('chevron-down'));
  wrapper.dataset.picker = label;
  return wrapper;
}
