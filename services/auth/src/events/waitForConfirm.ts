/** How long an answer waits for the broker's confirm of the event it published. */
export const PUBLISH_WAIT_MS = 2_000;

/**
 * Waits for a publish at most `ms`. EventBus.publish goes on until the broker confirms (it retries while the broker
 * is away), so an answer that waited for it would hang as long as the broker does; after `ms` the answer goes and
 * the publish carries on in the background. `publish` must already handle its own failure (log it).
 */
export async function waitForConfirm(publish: Promise<unknown>, ms = PUBLISH_WAIT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([publish, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
