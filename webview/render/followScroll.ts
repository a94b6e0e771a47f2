import { el, icon } from './dom';

/** How close to the bottom still counts as "following the stream". */
const STICK_THRESHOLD_PX = 32;

/**
 * Keeps a scrolling log at the bottom while the user follows along, and offers "Jump to latest"
 * once they scroll up to read.
 */
export class FollowScroll {
  /** The "Jump to latest" button, shown while the user is not following. */
  readonly jump: HTMLButtonElement;
  private stick = true;
  private lastScrollTop = 0;
  /** Where followBottom last put the view. */
  private followedTo = -1;
  /** The frame followSoon asked for, until it runs. */
  private soon = 0;

  constructor(private readonly log: HTMLElement) {
    this.jump = el('button', 'jump-latest', icon('arrow-down'), el('span', '', 'Jump to latest'));
    this.jump.type = 'button';
    this.jump.hidden = true;
    this.jump.addEventListener('click', () => this.scrollToEnd());
  }

  /**
   * At the bottom: follow. Moved up: the user is reading, stop following. Anything else (the
   * browser adjusting the position while content changes) keeps the current mode.
   */
  onScroll(): void {
    const top = this.log.scrollTop;
    if (this.stick && top === this.followedTo) {
      // Our own scroll to the bottom: nothing to decide, and reading scrollHeight would cost a
      // layout of the whole transcript on every frame of a stream.
      return;
    }
    const distance = this.log.scrollHeight - top - this.log.clientHeight;
    if (distance <= STICK_THRESHOLD_PX) {
      this.stick = true;
    } else if (top < this.lastScrollTop) {
      this.stick = false;
    }
    this.lastScrollTop = top;
    this.showFollowing();
  }

  /** Follows the stream again (the user sent a message, asked to jump, or a chat was opened). */
  scrollToEnd(): void {
    this.stick = true;
    // Before measuring the bottom: what reading above left unlaid-out is laid out again first.
    this.showFollowing();
    this.followBottom();
  }

  /**
   * Follows again from the next frame on, measuring nothing now (Send): that frame adds the sent message,
   * and is laid out once, at the bottom. Measuring in the keydown lays out the whole page before the
   * message leaves.
   */
  scrollToEndSoon(): void {
    this.stick = true;
    this.showFollowing();
    this.followSoon();
  }

  /**
   * Offers "Jump to latest" while the user reads above, and says so to the styles
   * (`.reading-above`: a streaming answer's newest blocks, off screen then, skip their layout).
   */
  private showFollowing(): void {
    this.jump.hidden = this.stick;
    this.log.classList.toggle('reading-above', !this.stick);
  }

  /**
   * Content changed outside a frame (the markdown worker's answer): while following, the bottom is put in
   * view at the start of the next frame, so the frame lays out and paints at the new position once.
   */
  followSoon(): void {
    if (this.stick && this.soon === 0) {
      this.soon = requestAnimationFrame(() => {
        this.soon = 0;
        this.followBottom();
      });
    }
  }

  /** Keeps the bottom in view while following (called after layout, e.g. from a ResizeObserver). */
  followBottom(): void {
    if (this.stick) {
      this.log.scrollTop = this.log.scrollHeight;
      this.lastScrollTop = this.log.scrollTop;
      this.followedTo = this.lastScrollTop;
    }
  }
}
