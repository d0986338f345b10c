import type { ServerResponse } from 'node:http';

/**
 * The Content-Security-Policy of every answer. Scripts, styles, fonts and data come from this origin only (the shell
 * and its remotes are served from it); WebAssembly from this origin may be compiled (hands-free voice's detector
 * runs in it), never eval'd JavaScript; styles may be inline (the UI's CSS-in-JS inserts <style> elements); audio may
 * be a blob: or data: URL (recorded and synthesized speech). Nothing may frame Kasa, plugins are off, and forms and
 * <base> cannot point elsewhere. An API answer (JSON) is never a document, so the policy costs it nothing.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['content-security-policy', CONTENT_SECURITY_POLICY],
  // A JSON answer holding text someone wrote (a chat message) is never sniffed into HTML or script.
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
  ['referrer-policy', 'strict-origin-when-cross-origin'],
  ['cross-origin-opener-policy', 'same-origin'],
  ['permissions-policy', 'camera=(), geolocation=(), payment=(), microphone=(self)'],
];

/**
 * Sets the security headers on a response of the gateway, before any pipeline writes it (an upstream's own headers
 * are added to these). HSTS is left to the TLS terminator in front of the gateway (the Ingress), which knows whether
 * the site is served over HTTPS.
 */
export function setSecurityHeaders(res: ServerResponse): void {
  for (const [name, value] of HEADERS) res.setHeader(name, value);
}
