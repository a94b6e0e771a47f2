import type { HostMessage } from '../../../src/protocol';
import { fileChange, message, sessionState, snapshot, toolCall, turn, turnChanges } from './builders';

const T0 = Date.UTC(2026, 10, 26, 9, 30);

/**
 * Two finished turns that changed files: the first one restored away (divider, marked), the second
 * with its change card waiting for Keep or Undo. For the change review's screenshots and a11y.
 */
export function changesTranscript(): HostMessage[] {
  return [
    snapshot({
      entries: [
        message('user', 'u1', 'Delete the legacy config loader.', { turnId: 't1' }),
        toolCall('c1', {
          turnId: 't1',
          title: 'rm src/legacyConfig.ts',
          toolKind: 'execute',
          status: 'completed',
        }),
        message('agent', 'a1', 'Removed `src/legacyConfig.ts` and its import.', { turnId: 't1' }),
        message('user', 'u2', 'Keep it, but validate the config with the schema instead.', { turnId: 't2' }),
        toolCall('c2', {
          turnId: 't2',
          title: 'Edit src/config.ts',
          toolKind: 'edit',
          status: 'completed',
          locations: [{ path: '/work/app/src/config.ts', line: 4 }],
        }),
        toolCall('c3', {
          turnId: 't2',
          title: 'npm test -- --grep config',
          toolKind: 'execute',
          status: 'completed',
        }),
        message(
          'agent',
          'a2',
          '`loadConfig` now checks the file against `ConfigSchema`, with a test for a bad file. ' +
            'The old fixture is gone.',
          { turnId: 't2' },
        ),
      ],
      turns: [
        turn('t1', {
          status: 'completed',
          stopReason: 'end_turn',
          startedAt: T0,
          endedAt: T0 + 20_000,
          checkpointId: 'cp-1',
          restoredAt: T0 + 60_000,
          changes: turnChanges([
            fileChange('src/legacyConfig.ts', {
              path: '/work/app/src/legacyConfig.ts',
              kind: 'deleted',
              added: 0,
              removed: 42,
              decision: 'undone',
            }),
            fileChange('src/index.ts', {
              path: '/work/app/src/index.ts',
              added: 0,
              removed: 1,
              decision: 'undone',
            }),
          ]),
        }),
        turn('t2', {
          status: 'completed',
          stopReason: 'end_turn',
          startedAt: T0 + 120_000,
          endedAt: T0 + 180_000,
          checkpointId: 'cp-2',
          changes: turnChanges([
            fileChange('src/config.ts', { path: '/work/app/src/config.ts', added: 6, removed: 2 }),
            fileChange('src/schema.ts', {
              path: '/work/app/src/schema.ts',
              added: 3,
              removed: 0,
              decision: 'kept',
            }),
            fileChange('test/config.test.ts', {
              path: '/work/app/test/config.test.ts',
              kind: 'created',
              added: 24,
              removed: 0,
            }),
            fileChange('test/fixtures/old-config.json', {
              path: '/work/app/test/fixtures/old-config.json',
              kind: 'deleted',
              added: 0,
              removed: 8,
            }),
            fileChange('docs/config.png', {
              path: '/work/app/docs/config.png',
              kind: 'created',
              added: 0,
              removed: 0,
              binary: true,
            }),
          ]),
        }),
      ],
      state: sessionState({ title: 'Validate the config file' }),
    }),
  ];
}
