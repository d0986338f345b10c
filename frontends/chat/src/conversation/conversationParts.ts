/**
 * Parts of a conversation that a new chat does not show before its first message: the message bubbles and the
 * reply stream's reader. They load when they are needed, or ahead of that when the person starts typing or opens
 * a stored conversation, so that the first visit of /chat does not carry them.
 */
export const loadMessageBubble = () => import('./MessageBubble');
export const loadReplyEvents = () => import('../streaming/replyEvents');
/**
 * Editing, regenerating and choosing versions: their calls come with the message bubbles (whose controls use them),
 * rather than as a chunk of their own.
 */
export const loadVersionsApi = () => loadMessageBubble().then((module) => module.versionsApi);

const ignore = () => undefined;

/** Starts loading both (a no-op once they are loaded). */
export function preloadConversationParts(): void {
  void loadMessageBubble().catch(ignore);
  void loadReplyEvents().catch(ignore);
}
