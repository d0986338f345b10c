/**
 * Paths whose last segment is the secret itself: a shared conversation's token, and the unguessable addresses of
 * audio and video files (an <audio>, a <video> or a reader without an account cannot send a credential). Whoever
 * reads a log must not be able to open them.
 */
const CAPABILITY_PREFIXES = ['/api/chat/shared/', '/api/voice/audio/', '/api/video/files/'];

/** The request path as the access log may show it: a capability's secret segment replaced with `[redacted]`. */
export function loggablePath(path: string): string {
  const prefix = CAPABILITY_PREFIXES.find((p) => path.startsWith(p));
  return prefix && path.length > prefix.length ? `${prefix}[redacted]` : path;
}
