import type * as acp from '@agentclientprotocol/sdk';
import { NotSupportedError } from '../connection/errors';
import { base64Bytes } from '../thread/normalize';
import type { Thread } from '../thread/thread';
import type { Attachment, Turn } from '../thread/threadTypes';

/** Content the user sends in a prompt, in our own terms. */
export type PromptBlock =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'resource_link';
      readonly uri: string;
      readonly name: string;
      readonly mimeType?: string;
    }
  /** An embedded text resource: a file or a selection with its text. */
  | { readonly type: 'resource'; readonly uri: string; readonly text: string; readonly mimeType?: string }
  | { readonly type: 'image'; readonly data: string; readonly mimeType: string; readonly uri?: string };

/**
 * Converts prompt blocks to ACP content blocks within what the agent advertised. An embedded
 * resource goes to an agent without `embeddedContext` as a fenced text block, so a selection is
 * never reduced to a bare link; an image the agent cannot take is refused before sending.
 */
export function toAcpContent(
  blocks: readonly PromptBlock[],
  capabilities: acp.PromptCapabilities | undefined,
  agentName: string,
): acp.ContentBlock[] {
  return blocks.map((block): acp.ContentBlock => {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text };
      case 'resource_link':
        return {
          type: 'resource_link',
          uri: block.uri,
          name: block.name,
          ...(block.mimeType ? { mimeType: block.mimeType } : {}),
        };
      case 'resource':
        if (capabilities?.embeddedContext) {
          return {
            type: 'resource',
            resource: {
              uri: block.uri,
              text: block.text,
              ...(block.mimeType ? { mimeType: block.mimeType } : {}),
            },
          };
        }
        return { type: 'text', text: `${block.uri}\n\`\`\`\n${block.text}\n\`\`\`` };
      case 'image':
        if (!capabilities?.image) {
          throw new NotSupportedError(agentName, 'Sending images');
        }
        return {
          type: 'image',
          data: block.data,
          mimeType: block.mimeType,
          ...(block.uri ? { uri: block.uri } : {}),
        };
      default: {
        const unknown: never = block;
        throw new Error(`Unknown prompt block ${JSON.stringify(unknown)}`);
      }
    }
  });
}

/** The user's message as the thread shows it: the text blocks joined, the rest as attachments. */
export function describePrompt(blocks: readonly PromptBlock[]): { text: string; attachments: Attachment[] } {
  const text = blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n\n');
  const attachments = blocks.flatMap((block): Attachment[] => {
    switch (block.type) {
      case 'text':
        return [];
      case 'resource_link':
        return [{ type: 'resource_link', uri: block.uri, name: block.name }];
      case 'resource':
        return [
          {
            type: 'resource',
            uri: block.uri,
            chars: block.text.length,
            ...(block.mimeType ? { mimeType: block.mimeType } : {}),
          },
        ];
      case 'image':
        return [{ type: 'image', mimeType: block.mimeType, bytes: base64Bytes(block.data) }];
      default:
        return [];
    }
  });
  return { text, attachments };
}

/** A message Stop kept from being sent: recorded as a turn that started and ended cancelled. */
export function keepUnsentPrompt(
  thread: Thread,
  blocks: readonly PromptBlock[],
  turnFields: Pick<Turn, 'checkpointId' | 'checkpointProblem'> = {},
): Turn {
  const { text, attachments } = describePrompt(blocks);
  const turn = thread.startTurn(text, attachments, turnFields);
  return thread.endTurn(turn.id, { status: 'cancelled', stopReason: 'cancelled' });
}
