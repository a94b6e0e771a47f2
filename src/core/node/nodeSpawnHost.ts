import { statSync } from 'node:fs';
import type { SpawnHost } from '../spawnPlan';

/** Whether a path names a regular file (a program candidate on PATH). */
export function isFile(candidate: string): boolean {
  try {
    return statSync(candidate).isFile();
  } catch {
    return false;
  }
}

/** This machine, as the spawn planner and PATH lookups see it. */
export function nodeSpawnHost(env: Readonly<Record<string, string | undefined>> = process.env): SpawnHost {
  return { platform: process.platform, env, isFile };
}
