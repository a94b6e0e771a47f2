import { strict as assert } from 'node:assert';
import { recorded } from '../../support/threadUpdates';

describe('Thread: session state', () => {
  it('replaces the plan with each plan update', () => {
    const { thread, events } = recorded();

    thread.applyUpdate({
      sessionUpdate: 'plan',
      entries: [
        { content: 'Read', priority: 'high', status: 'completed' },
        { content: 'Edit', priority: 'medium', status: 'in_progress' },
      ],
    });
    thread.applyUpdate({
      sessionUpdate: 'plan',
      entries: [{ content: 'Test', priority: 'low', status: 'pending' }],
    });

    assert.deepEqual(thread.snapshot().state.plan, [{ content: 'Test', priority: 'low', status: 'pending' }]);
    assert.deepEqual(
      events.map((event) => (event.type === 'state_updated' ? event.changed : event.type)),
      ['plan', 'plan'],
    );
  });

  it('keeps available commands with their input hint', () => {
    const { thread, events } = recorded();

    thread.applyUpdate({
      sessionUpdate: 'available_commands_update',
      availableCommands: [
        { name: 'web', description: 'Search the web', input: { hint: 'query to search for' } },
        { name: 'clear', description: 'Clear the context', input: null },
      ],
    });

    const state = {
      configOptions: [],
      commands: [
        { name: 'web', description: 'Search the web', inputHint: 'query to search for' },
        { name: 'clear', description: 'Clear the context' },
      ],
      plan: [],
    };
    assert.deepEqual(thread.snapshot().state, state);
    assert.deepEqual(events, [
      { type: 'state_updated', changed: 'commands', state: { commands: state.commands } },
    ]);
  });

  it('switches the current mode and keeps the known modes', () => {
    const { thread } = recorded();
    const available = [
      { id: 'ask', name: 'Ask' },
      { id: 'code', name: 'Code', description: 'Edits files' },
    ];
    thread.setState('modes', { currentModeId: 'ask', available });

    thread.applyUpdate({ sessionUpdate: 'current_mode_update', currentModeId: 'code' });

    assert.deepEqual(thread.snapshot().state.modes, { currentModeId: 'code', available });
  });

  it('records the current mode with no known modes when none were announced', () => {
    const { thread, events } = recorded();

    thread.applyUpdate({ sessionUpdate: 'current_mode_update', currentModeId: 'plan' });

    const state = {
      configOptions: [],
      commands: [],
      plan: [],
      modes: { currentModeId: 'plan', available: [] },
    };
    assert.deepEqual(thread.snapshot().state, state);
    assert.deepEqual(events, [{ type: 'state_updated', changed: 'modes', state: { modes: state.modes } }]);
  });

  it('flattens grouped select options into choices named by group and keeps boolean options', () => {
    const { thread } = recorded();
    // The option's own fields pass through unchanged; only its options become choices.
    const MODEL_FIELDS = {
      id: 'model',
      name: 'Model',
      description: 'The model to use',
      category: 'model',
      type: 'select',
      currentValue: 'sonnet',
    } as const;

    thread.applyUpdate({
      sessionUpdate: 'config_option_update',
      configOptions: [
        {
          ...MODEL_FIELDS,
          options: [
            {
              group: 'anthropic',
              name: 'Anthropic',
              options: [
                { value: 'sonnet', name: 'Sonnet', description: 'Fast' },
                { value: 'opus', name: 'Opus' },
              ],
            },
            { group: 'openai', name: 'OpenAI', options: [{ value: 'gpt', name: 'GPT' }] },
          ],
        },
        {
          id: 'effort',
          name: 'Effort',
          type: 'select',
          currentValue: 'low',
          options: [
            { value: 'low', name: 'Low' },
            { value: 'high', name: 'High', description: null },
          ],
        },
        { id: 'web', name: 'Web search', type: 'boolean', currentValue: true },
      ],
    });

    assert.deepEqual(thread.snapshot().state.configOptions, [
      {
        ...MODEL_FIELDS,
        choices: [
          { value: 'sonnet', name: 'Sonnet', description: 'Fast', group: 'Anthropic' },
          { value: 'opus', name: 'Opus', group: 'Anthropic' },
          { value: 'gpt', name: 'GPT', group: 'OpenAI' },
        ],
      },
      {
        id: 'effort',
        name: 'Effort',
        type: 'select',
        currentValue: 'low',
        choices: [
          { value: 'low', name: 'Low' },
          { value: 'high', name: 'High' },
        ],
      },
      { id: 'web', name: 'Web search', type: 'boolean', currentValue: true },
    ]);
  });

  it('sets the title from session info and ignores an update without a title', () => {
    const { thread, events } = recorded();

    thread.applyUpdate({ sessionUpdate: 'session_info_update', title: 'Fix the login bug' });
    thread.applyUpdate({ sessionUpdate: 'session_info_update', updatedAt: '2025-01-01T00:00:00Z' });

    assert.equal(thread.snapshot().state.title, 'Fix the login bug');
    assert.deepEqual(events, [
      {
        type: 'state_updated',
        changed: 'title',
        state: { title: 'Fix the login bug' },
      },
    ]);
  });

  it('clears the title on a null title', () => {
    const { thread, events } = recorded();

    thread.applyUpdate({ sessionUpdate: 'session_info_update', title: 'Old' });
    thread.applyUpdate({ sessionUpdate: 'session_info_update', title: null });

    assert.equal(thread.snapshot().state.title, undefined);
    assert.equal(events.length, 2);
  });

  it('records usage with its cost', () => {
    const { thread } = recorded();

    thread.applyUpdate({
      sessionUpdate: 'usage_update',
      used: 1200,
      size: 200000,
      cost: { amount: 0.42, currency: 'USD' },
    });

    assert.deepEqual(thread.snapshot().state.usage, {
      used: 1200,
      size: 200000,
      cost: { amount: 0.42, currency: 'USD' },
    });
  });

  it('records usage without a cost', () => {
    const { thread } = recorded();

    thread.applyUpdate({ sessionUpdate: 'usage_update', used: 5, size: 10, cost: null });

    assert.deepEqual(thread.snapshot().state.usage, { used: 5, size: 10 });
  });

  it('announces a notice without adding an entry', () => {
    const { thread, events } = recorded();

    thread.applyUpdate({
      sessionUpdate: 'notice',
      severity: 'warning',
      title: 'Slow down',
      description: 'Rate limited',
    });
    thread.applyUpdate({ sessionUpdate: 'notice', severity: 'critical', title: 'Unknown severity' });

    assert.deepEqual(events, [
      { type: 'notice', notice: { severity: 'warning', title: 'Slow down', description: 'Rate limited' } },
      { type: 'notice', notice: { severity: 'info', title: 'Unknown severity' } },
    ]);
    assert.deepEqual(thread.snapshot().entries, []);
  });
});
