import type { Mention } from '../../../protocol';

/**
 * Where the @-mention picker's workspace entries come from (files, folders, open editors, the
 * selection, workspace symbols, problems); the editor implements it. Earlier chats are added by the
 * controller, which owns them.
 */
export interface MentionSource {
  /** The entries matching `query` (fuzzy), best first, at most `limit`. */
  query(query: string, limit: number): Promise<Mention[]>;
  /** The problems of the file at `uri` as lines "path:line:column severity message (source)", now. */
  problems(uri: string): string[];
}
