import type { AgentSessionGroup, ConfigOptionMessage, ViewMessage } from '../../src/protocol';
import type { ChatStore } from '../store';
import { ChatList } from './chatList';
import { checkbox, el, icon, iconButton } from './dom';
import { sessionSettings } from './sessionSettings';
import { UsageMeter } from './usage';

interface Choice {
  readonly value: string;
  readonly label: string;
  readonly description?: string;
}

/**
 * Chat title, the chat list, "New chat", the pickers (agent, mode, the agent's config options) and the usage
 * meter. Pickers are rebuilt only when their choices change; otherwise only the value is set,
 * so an open dropdown is not torn down by an unrelated update.
 */
export class Header {
  readonly element: HTMLElement;
  private readonly title = el('h1', 'session-title');
  private readonly controls = el('div', 'pickers');
  private readonly usage = new UsageMeter();
  private readonly chatList: ChatList;
  private controlsKey = '';

  constructor(private readonly post: (message: ViewMessage) => boolean) {
    this.chatList = new ChatList(post);
    const history = toolbarButton('history', 'Show chats', 'show-chats');
    history.setAttribute('aria-controls', this.chatList.element.id);
    history.setAttribute('aria-expanded', 'false');
    history.addEventListener('click', () => this.chatList.toggle(history));
    const newChat = toolbarButton('add', 'New chat', 'new-chat');
    newChat.addEventListener('click', () => this.post({ type: 'new_chat' }));
    this.element = el(
      'header',
      'chat-header',
      el('div', 'header-row', this.title, history, newChat),
      el('div', 'header-controls', this.controls, this.usage.element),
      this.chatList.element,
    );
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
 * A header action. A native button (not vscode-toolbar-button, whose real button sits in its
 * shadow root) so aria-expanded and focus() apply to the element that has focus.
 */
function toolbarButton(iconName: string, label: string, className: string): HTMLButtonElement {
  const element = iconButton(iconName, label, () => undefined);
  element.classList.add('toolbar-button', className);
  return element;
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
