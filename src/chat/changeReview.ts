import type { Thread } from '../core/thread';

export class ChangeReview {
  async act(
    _thread: Thread,
    _turnId: string,
    _action: 'diff' | 'keep' | 'undo',
    _path?: string,
  ): Promise<void> {}
  async restore(_thread: Thread, _turnId: string): Promise<void> {}
}
