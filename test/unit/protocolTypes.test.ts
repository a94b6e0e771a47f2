import { strict as assert } from 'node:assert';
import type { ThreadEvent, ThreadSnapshot } from '../../src/core/thread/threadTypes';
import type { z } from 'zod';
import { ThreadEventSchema, ThreadSnapshotSchema } from '../../src/protocol';

/** Compile-time: the core's thread types and the protocol's schemas describe the same data. */
type DeepMutable<T> = T extends readonly (infer U)[]
  ? DeepMutable<U>[]
  : T extends object
    ? { -readonly [K in keyof T]: DeepMutable<T[K]> }
    : T;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const eventsMatch: Same<DeepMutable<ThreadEvent>, z.infer<typeof ThreadEventSchema>> = true;
const snapshotsMatch: Same<DeepMutable<ThreadSnapshot>, z.infer<typeof ThreadSnapshotSchema>> = true;

describe('protocol schemas for the thread', () => {
  it('have the same shape as the core types', () => {
    assert.equal(eventsMatch && snapshotsMatch, true);
  });

  it('accept a snapshot the core produces and reject a malformed one', () => {
    const snapshot: ThreadSnapshot = {
      entries: [
        { kind: 'user', id: 'e1', turnId: 't1', text: 'hi', attachments: [] },
        {
          kind: 'tool_call',
          id: 'e2',
          turnId: 't1',
          toolCallId: 'c1',
          title: 'Edit',
          toolKind: 'edit',
          status: 'pending',
          content: [{ type: 'diff', path: '/a', oldText: null, newText: 'x' }],
          locations: [{ path: '/a', line: 2 }],
          permission: {
            key: 'perm-1',
            options: [{ optionId: 'o', name: 'Allow', kind: 'allow_once' }],
            status: 'pending',
          },
        },
      ],
      turns: [{ id: 't1', status: 'running', startedAt: 1 }],
      state: { configOptions: [], commands: [], plan: [] },
    };
    assert.deepEqual(ThreadSnapshotSchema.parse(snapshot), snapshot);
    assert.equal(
      ThreadSnapshotSchema.safeParse({ ...snapshot, turns: [{ id: 't1', status: 'exploded', startedAt: 1 }] })
        .success,
      false,
    );
    assert.equal(ThreadEventSchema.safeParse({ type: 'text_appended', entryId: 'e1' }).success, false);
  });
});
