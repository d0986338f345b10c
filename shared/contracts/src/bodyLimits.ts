const KB = 1024;
const MB = 1024 * KB;

/**
 * The largest recording `POST /api/voice/transcribe` accepts (10 MB). The voice service's `VOICE_TRANSCRIBE_MAX_BYTES`
 * may lower it, never raise it: the gateway's upload route accepts no more.
 */
export const TRANSCRIBE_MAX_AUDIO_BYTES = 10 * MB;

/**
 * What a multipart form adds around a recording: the boundary lines, each part's headers (name, file name, type) and
 * the small fields (`language`; the voice service allows at most 8 parts and 5 fields of 1,000 bytes). A few KB in
 * practice; 64 KB leaves room for long file names and chatty clients without letting a second file through.
 */
export const MULTIPART_OVERHEAD_BYTES = 64 * KB;

/**
 * The request body limits of Kasa's routes, in bytes, in one place: the gateway's `kasa-proxy` policy enforces them
 * per route (`maxBodyBytes: <name>` in gateway.config.yml) and each service parses bodies up to the same number, so
 * the two never disagree about what is too large.
 */
export const BODY_LIMITS = {
  /** Sign-in, sign-up, API keys, billing, teams and the public forms (the auth service's JSON). */
  auth: 16 * KB,
  /** Personas, sessions and messages (a message is at most 16,000 characters; JSON around it). */
  chat: 64 * KB,
  /** The OpenAI-compatible `/v1/*` routes: a conversation of up to `OPENAI_REQUEST_LIMITS.totalChars` characters. */
  openAI: 1 * MB,
  /** Speech, translation, video jobs (text to speak is at most 5,000 characters; escaped JSON can reach ~60 KB). */
  voice: 64 * KB,
  /**
   * `POST /api/chat/attachments`: one file as the raw body, up to the larger of the per-kind limits
   * (ATTACHMENT_LIMITS: images 10 MB, documents 20 MB).
   */
  attachments: 20 * MB,
  /** `POST /api/voice/transcribe`: a recording plus the multipart form around it. */
  transcription: TRANSCRIBE_MAX_AUDIO_BYTES + MULTIPART_OVERHEAD_BYTES,
  /** Status and analytics (small JSON). */
  status: 100 * KB,
  /**
   * `POST /api/billing/webhooks/*`: a payment processor's signed event, read as raw bytes (the signature covers
   * them). A Stripe event carries a whole object (an invoice lists up to 10 lines in an event; typically 5–20 KB);
   * 512 KB leaves room without letting anyone send megabytes before the signature is checked.
   */
  webhooks: 512 * KB,
} as const satisfies Record<string, number>;
export type BodyLimitName = keyof typeof BODY_LIMITS;

/**
 * What `POST /v1/chat/completions` accepts, chosen so that any conversation within it fits `BODY_LIMITS.openAI`:
 * 320,000 characters (counted as JavaScript does, in UTF-16 units) take at most 960,000 bytes as UTF-8 (3 bytes per
 * unit at most), and the JSON around 200 messages about 10 KB more, which leaves ~78 KB of the 1 MB for the other
 * fields. A client that escapes every non-ASCII character as `\uXXXX` (Python's `json.dumps` by default) spends 6
 * bytes per character; such a body can reach the byte limit first and gets a 413 naming it.
 */
export const OPENAI_REQUEST_LIMITS = {
  /** Messages in one request. */
  messages: 200,
  /** Characters of one message's text (a string, or the `text` of its parts together). */
  messageChars: 64_000,
  /** Characters of all the messages' text together. */
  totalChars: 320_000,
  /**
   * Images (`image_url` parts with base64 data URLs) in one request. They travel inside the same 1 MB body, so
   * together they can be about 700 KB; larger images go through the chat API's attachments.
   */
  images: 4,
} as const;

/**
 * A size as people read it, rounded down (a client that stays under the stated limit always fits): `10 MB`,
 * `1.5 MB`, `64 KB`, `512 bytes`.
 */
export function formatByteSize(bytes: number): string {
  const oneDecimal = (value: number) => String(Math.floor(value * 10) / 10);
  if (bytes >= MB) return `${oneDecimal(bytes / MB)} MB`;
  if (bytes >= KB) return `${oneDecimal(bytes / KB)} KB`;
  return `${Math.floor(bytes)} bytes`;
}

/**
 * The message of every 413 `payload_too_large`, from the gateway or a service: `The request body is too large: the
 * limit is 1 MB.` (`subject` names what was too large when it is more precise, e.g. `recording`).
 */
export function payloadTooLargeMessage(limitBytes: number, subject = 'request body'): string {
  return `The ${subject} is too large: the limit is ${formatByteSize(limitBytes)}.`;
}
