// Heap snapshots of a bench page through the DevTools protocol, summed by kind of object.

/** A heap snapshot taken through `cdp` after a garbage collection, parsed (V8's JSON format). */
export async function takeSnapshot(cdp) {
  const chunks = [];
  const onChunk = ({ chunk }) => chunks.push(chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  return JSON.parse(chunks.join(''));
}

/** Self size and count per "type:name" of a heap snapshot taken through `cdp`. */
export async function snapshotSummary(cdp) {
  const snapshot = await takeSnapshot(cdp);
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt, detachedAt] = ['type', 'name', 'self_size', 'detachedness'].map((f) =>
    fields.indexOf(f),
  );
  const summary = new Map();
  let detached = 0;
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt]];
    const name =
      type === 'object' || type === 'native' ? snapshot.strings[snapshot.nodes[i + nameAt]] : `(${type})`;
    const key = `${type}:${name.slice(0, 60)}`;
    const entry = summary.get(key) ?? { count: 0, size: 0 };
    entry.count++;
    entry.size += snapshot.nodes[i + sizeAt];
    summary.set(key, entry);
    if (detachedAt >= 0 && snapshot.nodes[i + detachedAt] === 2) {
      detached++;
    }
  }
  return { summary, detached };
}

/** The bytes of V8's compiled code (bytecode and machine code) in a `snapshotSummary`. */
export function codeBytes({ summary }) {
  let bytes = 0;
  for (const [key, entry] of summary) {
    if (key.startsWith('code:')) {
      bytes += entry.size;
    }
  }
  return bytes;
}

/**
 * The bytes of Blink's own objects in a `snapshotSummary` (the DOM, its layout and style, in Blink's
 * garbage-collected heap): what the JS heap's figure leaves out. V8's internals, also "native", are not.
 */
export function blinkBytes({ summary }) {
  let bytes = 0;
  for (const [key, entry] of summary) {
    if (key.startsWith('native:') && !key.startsWith('native:system / ')) {
      bytes += entry.size;
    }
  }
  return bytes;
}

/**
 * From a heap snapshot of `page` (a Playwright page; MB): V8's compiled code in its heap (machine
 * code for the functions V8 tiers up while the turns stream; not bytecode flushed by the measuring GCs: the
 * figure is the same with `--no-flush-bytecode`) and Blink's objects beside the JS heap (the DOM, its layout
 * and style).
 */
export async function snapshotMb(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const summary = await snapshotSummary(cdp);
    return { codeMb: codeBytes(summary) / (1024 * 1024), blinkMb: blinkBytes(summary) / (1024 * 1024) };
  } finally {
    await cdp.detach();
  }
}
