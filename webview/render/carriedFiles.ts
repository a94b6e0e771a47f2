import { isImageFile, readDroppedText, readImage, type CarriedFile } from './imageFiles';

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

/**
 * The images and text files a message carries by value (pasted or dropped; kept in the view only), within
 * the protocol's count, with a word for what could not be taken.
 */
export class CarriedFiles {
  private files: readonly CarriedFile[] = [];

  constructor(
    private readonly report: (message: string) => void,
    private readonly changed: (files: readonly CarriedFile[]) => void,
  ) {}

  get list(): readonly CarriedFile[] {
    return this.files;
  }

  set(files: readonly CarriedFile[]): void {
    this.files = files;
    this.changed(files);
  }

  /** A paste into the box: images are taken (text pastes as usual). */
  onPaste(event: ClipboardEvent, agent: AgentImages): void {
    const images = Array.from(event.clipboardData?.files ?? []).filter(isImageFile);
    if (images.length > 0) {
      event.preventDefault();
      void this.addImages(images, agent);
    }
  }

  async addImages(images: readonly File[], agent: AgentImages): Promise<void> {
    if (images.length === 0) {
      return;
    }
    if (agent.acceptsImages === false) {
      this.report(
        `${agent.agentName} does not take images: ${images.map((file) => file.name || 'the pasted image').join(', ')} not attached.`,
      );
      return;
    }
    this.carry(await readCarried(images, readImage, this.report));
  }

  async addTextFiles(files: readonly File[]): Promise<void> {
    if (files.length > 0) {
      this.carry(await readCarried(files, readDroppedText, this.report));
    }
  }

  private carry(added: readonly CarriedFile[]): void {
    const kept = withinLimit(this.files, added, this.report);
    if (kept.length !== this.files.length) {
      this.set(kept);
    }
  }
}

/** What the composer knows of the agent's taste for images. */
interface AgentImages {
  readonly acceptsImages: boolean | undefined;
  readonly agentName: string;
}
