import { Message } from './chat';
import { z } from './zod';

/**
 * A read-only link to a conversation: `/share/<token>`. The token is 128 random bits (22 base64url characters) and is
 * the only secret; the owner can stop sharing at any time, after which the link answers 404 for good.
 */
export const ShareToken = z
  .string()
  .regex(/^[A-Za-z0-9_-]{22}$/, 'must be a 22-character share token')
  .openapi('ShareToken');
export const ShareTokenPathParam = z.object({ token: ShareToken });

/** The most messages a shared page shows: the newest ones up to the moment of sharing. */
export const SHARED_CONVERSATION_MAX_MESSAGES = 200;

/** The owner's view of a conversation's link. */
export const ConversationShare = z
  .object({
    token: ShareToken,
    /** The web app's path of the read-only page; prefix it with the site's origin. */
    path: z.string(),
    sessionId: z.string(),
    /** Messages a reader sees: those written up to `sharedAt` (sharing again moves it to now). */
    messageCount: z.number().int().nonnegative(),
    sharedAt: z.string().datetime(),
  })
  .openapi('ConversationShare');
export type ConversationShare = z.infer<typeof ConversationShare>;

/** What anyone with the link reads: no account, no owner's name or email, only the conversation up to `sharedAt`. */
export const SharedConversation = z
  .object({
    title: z.string(),
    persona: z.object({
      id: z.string(),
      name: z.string(),
      avatar: z.string().optional(),
      color: z.string().optional(),
    }),
    sharedAt: z.string().datetime(),
    messages: z.array(Message),
    /** True when older messages were left out (a shared page shows at most SHARED_CONVERSATION_MAX_MESSAGES). */
    truncated: z.boolean(),
  })
  .openapi('SharedConversation');
export type SharedConversation = z.infer<typeof SharedConversation>;
