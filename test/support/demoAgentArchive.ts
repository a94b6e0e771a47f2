import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The demo agent (`demoAgentJs`, the built dist/demo-agent.js) as a registry's binary distribution: a
 * script behind a node shebang at bin/agent, not executable until installed, packed in `dir`/tiny.tar.gz.
 * Returns the archive's bytes.
 */
export function packDemoAgent(dir: string, demoAgentJs: string): Buffer {
  const folder = path.join(dir, 'files');
  mkdirSync(path.join(folder, 'bin'), { recursive: true });
  const script = path.join(folder, 'bin', 'agent');
  writeFileSync(script, `#!/usr/bin/env node\n${readFileSync(demoAgentJs, 'utf8')}`);
  chmodSync(script, 0o644);
  execFileSync('tar', ['-czf', path.join(dir, 'tiny.tar.gz'), '-C', folder, '.']);
  return readFileSync(path.join(dir, 'tiny.tar.gz'));
}
