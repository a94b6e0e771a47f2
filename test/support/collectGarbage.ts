import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
/** A full garbage collection now (V8's `gc`, reached without starting node with `--expose-gc`). */
export const collectGarbage = runInNewContext('gc') as () => void;
