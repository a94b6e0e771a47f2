import type { CarriedFile } from './imageFiles';

/** The protocol's limit of images, and of dropped text files, in one message. */
const MAX_CARRIED_PER_KIND = 10;

/** Reads files to carry by value; those that cannot be read are reported and left out. */
export async function readCarried<T extends CarriedFile>(
  files: readonly File[],
  read: (file: File) => Promise<T | { readonly problem: string }>,
  report: (message: string) => void,
): Promise<T[]> {
  const results = await Promise.all(files.map(read));
  const problems = results.flatMap((result) => ('problem' in result ? [result.problem] : []));
  if (problems.length > 0) {
    report(problems.join(' '));
  }
  return results.flatMap((result) => ('problem' in result ? [] : [result]));
}

/** `kept` with `added` within the protocol's count per kind, saying so when some do not fit. */
export function withinLimit(
  kept: readonly CarriedFile[],
  added: readonly CarriedFile[],
  report: (message: string) => void,
): CarriedFile[] {
  const result = [...kept];
  const left: string[] = [];
  for (const file of added) {
    if (result.filter((existing) => existing.kind === file.kind).length < MAX_CARRIED_PER_KIND) {
      result.push(file);
    } else {
      left.push(file.name);
    }
  }
  if (left.length > 0) {
    report(`${left.join(', ')} not attached: a message takes up to ${MAX_CARRIED_PER_KIND} of each.`);
  }
  return result;
}
