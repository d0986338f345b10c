/**
 * An AbortController that also aborts when `outer` does (with its reason). `release` detaches it from `outer` once
 * the work is over, so a long-lived signal does not collect listeners. (AbortSignal.any would do this, but not
 * every browser Kasa supports has it.)
 */
export function linkedController(outer?: AbortSignal): { controller: AbortController; release: () => void } {
  const controller = new AbortController();
  if (!outer) return { controller, release: () => undefined };
  if (outer.aborted) {
    controller.abort(outer.reason);
    return { controller, release: () => undefined };
  }
  const onAbort = () => controller.abort(outer.reason);
  outer.addEventListener('abort', onAbort, { once: true });
  return { controller, release: () => outer.removeEventListener('abort', onAbort) };
}
