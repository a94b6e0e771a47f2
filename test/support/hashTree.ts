import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Names, modes, link targets and bytes of everything under `root`: any write, create or delete below it
 * changes the hash (the attack tests compare a folder outside the workspace before and after).
 */
export function hashTree(root: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const info = lstatSync(full);
      hash.update(`${path.relative(root, full)}\0${info.mode}\0`);
      if (info.isSymbolicLink()) {
        hash.update(readlinkSync(full));
      } else if (info.isDirectory()) {
        walk(full);
      } else {
        hash.update(readFileSync(full));
      }
    }
  };
  walk(root);
  return hash.digest('hex');
}
