import { copyFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const DOCS = resolve(__dirname, '../../../docs');

/**
 * Copies a picture this suite took (into test-results/) to docs/<name> for the README, only when
 * `npm run screenshots` runs (scripts/screenshots.mjs sets ACP_DOCS_SCREENSHOTS=1): other runs leave the
 * tracked docs/ alone. Returns where the README picture went, or undefined when it was not asked for.
 */
export async function saveForDocs(picture: string, name: string): Promise<string | undefined> {
  if (process.env.ACP_DOCS_SCREENSHOTS !== '1') {
    return undefined;
  }
  await mkdir(DOCS, { recursive: true });
  const target = join(DOCS, name);
  await copyFile(picture, target);
  return target;
}
