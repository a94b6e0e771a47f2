import { strict as assert } from 'node:assert';
import { signInMethodsOf } from '../../src/core/connection/authMethods';

describe('sign-in methods from authMethods', () => {
  it('reads agent, terminal, terminal-auth metadata and env_var methods', () => {
    assert.deepEqual(
      signInMethodsOf([
        {
          id: 'claude-login',
          name: 'Log in with Claude Code',
          description: 'Run `claude /login` in the terminal',
        },
        { id: 'tui', name: 'Log in', type: 'terminal', args: ['--login'], env: { MODE: 'x' } },
        {
          id: 'meta',
          name: 'Meta login',
          _meta: { 'terminal-auth': { command: 'gemini', args: ['auth', 'login'] } },
        },
        {
          id: 'key',
          name: 'API key',
          type: 'env_var',
          vars: [{ name: 'GEMINI_API_KEY', label: 'Gemini key' }],
        },
      ]),
      [
        {
          kind: 'agent',
          id: 'claude-login',
          name: 'Log in with Claude Code',
          description: 'Run `claude /login` in the terminal',
        },
        { kind: 'terminal', id: 'tui', name: 'Log in', args: ['--login'], env: { MODE: 'x' } },
        {
          kind: 'terminal',
          id: 'meta',
          name: 'Meta login',
          command: 'gemini',
          args: ['auth', 'login'],
          env: {},
        },
        {
          kind: 'env_var',
          id: 'key',
          name: 'API key',
          variables: [{ name: 'GEMINI_API_KEY', label: 'Gemini key' }],
        },
      ],
    );
  });

  it('skips entries it cannot read', () => {
    assert.deepEqual(
      signInMethodsOf([42, { id: '', name: 'x' }, { id: 'k', name: 'Key', type: 'env_var', vars: [] }, null]),
      [],
    );
  });
});
