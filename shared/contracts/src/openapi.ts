import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { ZodObject, ZodType } from 'zod';
import { ApiKeyList, CreateApiKeyRequest, CreateApiKeyResponse } from './apiKeys';
import { AuthResponse, JsonWebKeySet, LoginRequest, LogoutResponse, MeResponse, RegisterRequest } from './auth';
import {
  AddOnCheckoutRequest,
  BillingHistoryQuery,
  BillingHistoryResponse,
  BillingPortalResponse,
  CheckoutRequest,
  CheckoutResponse,
  Payment,
  PaymentReference,
  PlansResponse,
  SubscriptionResponse,
} from './billing';
import { CreateMessageRequest, CreateSessionRequest, Message, Persona, Session } from './chat';
import { ErrorBody } from './common';
import { GeoLookupQuery, GeoLookupResponse } from './geo';
import { ContactRequest, ContactResponse, NewsletterSubscribeRequest, NewsletterSubscribeResponse } from './outreach';
import {
  LanguagePreference,
  LanguagePreferenceResponse,
  ThemePreferenceResponse,
  ThemeSettings,
  TourPreferenceResponse,
  TourPreferences,
} from './preferences';
import {
  AnalyticsResponse,
  AnalyticsSessionsQuery,
  AnalyticsSessionsResponse,
  PlatformStatusResponse,
  ServicesStatusResponse,
  UsageQuery,
  UsageResponse,
} from './status';
import {
  DetectLanguageRequest,
  DetectLanguageResponse,
  Language,
  LanguageList,
  SynthesizeRequest,
  SynthesizeResponse,
  TranscribeRequest,
  TranscribeResponse,
  TranslateRequest,
  TranslateResponse,
  VoiceList,
  VoiceSampleList,
  VoiceStatus,
} from './voice';
import { chatOperations } from './openapiChat';
import { teamOperations } from './openapiTeams';
import { adminOperations } from './openapiAdmin';
import { videoOperations } from './openapiVideo';
import { audioOperations } from './openapiAudio';
import { z } from './zod';

export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  summary: string;
  tag: string;
  auth: boolean;
  body?: ZodType;
  /** The body's media type when not JSON (e.g. multipart/form-data for an upload). */
  bodyContentType?: string;
  /** The body may be left out (every field of `body` is optional). */
  bodyOptional?: boolean;
  response?: ZodType;
  responseDescription?: string;
  /** Status codes beyond 200/400/401/500 that the operation answers with. */
  errors?: number[];
  params?: Record<string, ZodType>;
  /** Query parameters, as the zod object the service validates them with. */
  query?: ZodObject;
  /** The success status(es) when not the default (201 for a POST other than login, else 200). */
  successStatus?: number | number[];
  /**
   * A second, streamed answer the client gets by asking for its media type in Accept (SSE, audio), or by a body
   * field (`stream: true`); `schema` describes each event's data. With the same status as `response`, both media
   * types are listed under it.
   */
  stream?: { status: number; contentType: string; description: string; schema?: ZodType };
  /** A success answer that is a document rather than JSON (an HTML page, a PDF). */
  document?: { contentType: string };
}

const errorDescriptions: Record<number, string> = {
  400: 'The request is malformed or fails validation',
  401: 'The bearer token is missing, invalid, expired or revoked',
  403: 'The plan does not include this feature',
  404: 'Not found, or not yours',
  409: 'Conflicts with an existing resource',
  413: 'The body is too large',
  415: 'The upload is not one of the accepted media types',
  422:
    'file_too_complex: the file is past a processing limit (pages, pixels, files inside, unpacked size, compression ' +
    'ratio, or the time or memory reading it took); `details` names the limit',
  429: 'Too many requests, or the plan’s monthly API call quota is used up (see Retry-After and RateLimit-*)',
  502:
    'invalid_model_output: the AI provider’s reply was not the JSON that response_format asked for (not JSON, or ' +
    'not valid against the schema); `details` says what is wrong',
  503: 'A service behind the gateway is unavailable',
};

/** What 409 and 422 also mean on an operation that takes an Idempotency-Key. */
const idempotencyErrorDescriptions: Record<number, string> = {
  400: 'The request is malformed or fails validation, or the Idempotency-Key is not 1–255 printable ASCII characters',
  409:
    'Conflicts with an existing resource, or (idempotency_in_progress) a request with the same Idempotency-Key is ' +
    'still running: retry after Retry-After',
  422: 'idempotency_key_reused: the Idempotency-Key was already used with a different body, method or path',
};

/**
 * Whether the gateway honours an `Idempotency-Key` on an operation: every POST that needs a bearer credential (the
 * gateway's kasa-idempotency policy sits on every authenticated pipeline and acts on POST only).
 */
export const acceptsIdempotencyKey = (op: Pick<Operation, 'method' | 'auth'>): boolean =>
  op.method === 'post' && op.auth;

/** The header, as the gateway checks it (1–255 printable ASCII characters). */
export const IdempotencyKeyHeader = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x20-\x7e]+$/, 'printable ASCII characters only')
  .openapi({
    param: { name: 'Idempotency-Key', in: 'header', required: false },
    description:
      'Makes the call safe to retry: the first request with a key runs, and for 24 hours a request with the same ' +
      'key, method, path and body gets its answer again (the same status and body, a streamed reply as a whole) ' +
      'with `Idempotent-Replayed: true`, instead of creating a second one. Keys belong to the caller (per person, ' +
      'and per team for team keys); a random UUID per logical call is a good key. The same key with another body, ' +
      'method or path is a 422; a retry while the first still runs waits for its answer (up to 30 s, then 409 with ' +
      'Retry-After). Answers with a 5xx, 409 or 429 status (or over 1 MB) are not kept: retrying them runs again.',
    example: '6f1c1f9e-8d1b-4b8e-9a55-3f0d4a1c2b7e',
  });

/** The operations of the chat service, of teams, of video and of OpenAI's Audio API, documented in their own files. */
export { adminOperations, audioOperations, chatOperations, teamOperations, videoOperations };

/** Every public operation of Kasa, documented from the same zod schemas that validate it. */
export const operations: Operation[] = [
  {
    method: 'post',
    path: '/api/auth/register',
    summary: 'Create an account',
    tag: 'Auth',
    auth: false,
    body: RegisterRequest,
    response: AuthResponse,
    errors: [409, 429],
  },
  {
    method: 'post',
    path: '/api/auth/login',
    summary: 'Sign in with email and password',
    tag: 'Auth',
    auth: false,
    body: LoginRequest,
    response: AuthResponse,
    errors: [429],
  },
  {
    method: 'get',
    path: '/api/auth/me',
    summary: 'The signed-in user, and whether they are an operator of this Kasa (read afresh on every call)',
    tag: 'Auth',
    auth: true,
    response: MeResponse,
  },
  {
    method: 'get',
    path: '/api/auth/preferences/theme',
    summary: 'The signed-in user’s saved theme (null until one is saved)',
    tag: 'Auth',
    auth: true,
    response: ThemePreferenceResponse,
  },
  {
    method: 'put',
    path: '/api/auth/preferences/theme',
    summary: 'Save the signed-in user’s theme, so that it follows them to other browsers',
    tag: 'Auth',
    auth: true,
    body: ThemeSettings,
    response: ThemePreferenceResponse,
  },
  {
    method: 'get',
    path: '/api/auth/preferences/tours',
    summary: 'The guided tours the signed-in user completed or skipped (null until they finish or skip one)',
    tag: 'Auth',
    auth: true,
    response: TourPreferenceResponse,
  },
  {
    method: 'put',
    path: '/api/auth/preferences/tours',
    summary: 'Save which guided tours the signed-in user completed or skipped, so that they do not come back',
    tag: 'Auth',
    auth: true,
    body: TourPreferences,
    response: TourPreferenceResponse,
  },
  {
    method: 'get',
    path: '/api/auth/preferences/language',
    summary: 'The signed-in user’s interface language (null until they pick one)',
    tag: 'Auth',
    auth: true,
    response: LanguagePreferenceResponse,
  },
  {
    method: 'put',
    path: '/api/auth/preferences/language',
    summary: 'Save the signed-in user’s interface language, so that it follows them to other browsers',
    tag: 'Auth',
    auth: true,
    body: LanguagePreference,
    response: LanguagePreferenceResponse,
  },
  {
    method: 'get',
    path: '/api/auth/logout',
    summary: 'Revoke the token and redirect the browser to /',
    tag: 'Auth',
    auth: false,
    responseDescription: 'Redirect to /',
  },
  {
    method: 'post',
    path: '/api/auth/logout',
    summary: 'Revoke the bearer token (and the session cookie) for an API client; answered in JSON',
    tag: 'Auth',
    auth: false,
    response: LogoutResponse,
    successStatus: 200,
  },
  {
    method: 'get',
    path: '/api/billing/plans',
    summary:
      'The plans (Free, Pro, Enterprise), the premium add-ons, the pricing FAQ, and testMode (checkouts take no ' +
      'money on this server)',
    tag: 'Billing',
    auth: false,
    response: PlansResponse,
  },
  {
    method: 'post',
    path: '/api/billing/checkout',
    summary:
      'Choose a plan: 200 when there is nothing to buy, 202 when the sales team will get in touch (Enterprise), ' +
      '201 with the payment (and, once paid, a fresh token carrying the new tier)',
    tag: 'Billing',
    auth: true,
    body: CheckoutRequest,
    response: CheckoutResponse,
    successStatus: [200, 201, 202],
    errors: [409],
  },
  {
    method: 'post',
    path: '/api/billing/add-ons/checkout',
    summary:
      'Buy one add-on pack (extra API calls) through the same checkout as a plan: 201 with the payment; once the ' +
      'processor confirms it, the calls are added to this month’s quota. 403 naming the plan when the caller’s plan ' +
      'cannot buy it',
    tag: 'Billing',
    auth: true,
    body: AddOnCheckoutRequest,
    response: CheckoutResponse,
    successStatus: 201,
    errors: [403, 409],
  },
  {
    method: 'get',
    path: '/api/billing/history',
    summary: 'The caller’s completed payments, newest first, a page at a time, each with its receipt’s addresses',
    tag: 'Billing',
    auth: true,
    query: BillingHistoryQuery,
    response: BillingHistoryResponse,
  },
  {
    method: 'get',
    path: '/api/billing/receipts/{reference}',
    summary: 'The receipt of one of the caller’s completed payments, as an HTML page; someone else’s: 404',
    tag: 'Billing',
    auth: true,
    document: { contentType: 'text/html' },
    errors: [404],
    params: { reference: PaymentReference },
  },
  {
    method: 'get',
    path: '/api/billing/receipts/{reference}/receipt.pdf',
    summary: 'The same receipt as a PDF download',
    tag: 'Billing',
    auth: true,
    document: { contentType: 'application/pdf' },
    errors: [404],
    params: { reference: PaymentReference },
  },
  {
    method: 'get',
    path: '/api/billing/checkout/{reference}',
    summary: 'One of the caller’s payments, by its transaction reference',
    tag: 'Billing',
    auth: true,
    response: Payment,
    errors: [404],
    params: { reference: PaymentReference },
  },
  {
    method: 'post',
    path: '/api/billing/checkout/{reference}/verify',
    summary:
      'Ask the payment processor about one of the caller’s checkouts (the success page calls it on return): once ' +
      'the processor confirms the payment, amount and currency, the plan changes and the answer carries a fresh ' +
      'token with the new tier; until then `status: pending`. Changes nothing on a payment the processor does not ' +
      'confirm',
    tag: 'Billing',
    auth: true,
    response: CheckoutResponse,
    successStatus: 200,
    errors: [404],
    params: { reference: PaymentReference },
  },
  {
    method: 'get',
    path: '/api/billing/subscription',
    summary:
      'The caller’s subscription: processor, plan, status (active, past_due, canceled), the end of the period paid ' +
      'for, whether it ends there, the grace period after a failed renewal, and what can be done with it',
    tag: 'Billing',
    auth: true,
    response: SubscriptionResponse,
  },
  {
    method: 'post',
    path: '/api/billing/portal',
    summary:
      'A page of the payment processor where the caller changes their card or cancels (Stripe’s Customer Portal, ' +
      'Paystack’s subscription page); 404 without a subscription, 409 when it has nothing to manage',
    tag: 'Billing',
    auth: true,
    response: BillingPortalResponse,
    successStatus: 200,
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/billing/subscription/cancel',
    summary:
      'Cancel at the end of the period paid for: the plan stays until `currentPeriodEnd`, then the account is on ' +
      'Free with its data kept; resume until then',
    tag: 'Billing',
    auth: true,
    response: SubscriptionResponse,
    successStatus: 200,
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/billing/subscription/resume',
    summary: 'Undo a cancellation before the period ends: the subscription renews again',
    tag: 'Billing',
    auth: true,
    response: SubscriptionResponse,
    successStatus: 200,
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/newsletter',
    summary: 'Subscribe an email address to the newsletter (the same answer if it already is)',
    tag: 'Public',
    auth: false,
    body: NewsletterSubscribeRequest,
    response: NewsletterSubscribeResponse,
    successStatus: 200,
    errors: [413, 429],
  },
  {
    method: 'post',
    path: '/api/contact',
    summary: 'Send a message to the Kasa team; answers with a reference',
    tag: 'Public',
    auth: false,
    body: ContactRequest,
    response: ContactResponse,
    errors: [413, 429],
  },
  {
    method: 'post',
    path: '/api/developer/keys',
    summary: 'Create an API key; the response shows the full key, once (sign in: API keys cannot create keys)',
    tag: 'Developer',
    auth: true,
    body: CreateApiKeyRequest,
    response: CreateApiKeyResponse,
    errors: [409],
  },
  {
    method: 'get',
    path: '/api/developer/keys',
    summary: 'The signed-in user’s API keys, masked, with when each was created, last used, expires or was revoked',
    tag: 'Developer',
    auth: true,
    response: ApiKeyList,
  },
  {
    method: 'delete',
    path: '/api/developer/keys/{keyId}',
    summary: 'Revoke an API key; calls with it are refused within seconds',
    tag: 'Developer',
    auth: true,
    successStatus: 204,
    responseDescription: 'Revoked (also when it already was)',
    errors: [404],
    params: { keyId: z.string() },
  },
  {
    method: 'get',
    path: '/api/personas',
    summary: 'The AI personas',
    tag: 'Chat',
    auth: true,
    response: z.array(Persona),
  },
  {
    method: 'post',
    path: '/api/chat/sessions',
    summary: 'Start a chat session with a persona',
    tag: 'Chat',
    auth: true,
    body: CreateSessionRequest,
    response: Session,
  },
  {
    method: 'post',
    path: '/api/chat/sessions/{sessionId}/messages',
    summary: 'Send a message; the reply streams with Accept: text/event-stream',
    tag: 'Chat',
    auth: true,
    body: CreateMessageRequest,
    response: Message,
    stream: {
      status: 200,
      contentType: 'text/event-stream',
      description:
        'With Accept: text/event-stream, the reply as Server-Sent Events: meta, token {text}, done (the stored ' +
        'message), error {message}',
    },
    // 409: an attachment already sent in another conversation; 429: ten replies of this person are being written.
    errors: [403, 404, 409, 429],
    params: { sessionId: z.string() },
  },
  {
    method: 'post',
    path: '/api/voice/synthesize',
    summary:
      'Turn text into speech (Pro and Enterprise; the samples of /api/voice/samples need no token). With Accept: audio/mpeg the audio streams as it is made',
    tag: 'Voice',
    auth: true,
    body: SynthesizeRequest,
    response: SynthesizeResponse,
    stream: {
      status: 200,
      contentType: 'audio/mpeg',
      description:
        'With Accept: audio/mpeg (or audio/ogg, audio/wav), the audio as it is made; X-Kasa-Audio-Url names the ' +
        'stored copy',
    },
    // 429: the person's syntheses at once (VOICE_SYNTHESIS_MAX_CONCURRENT) are all under way.
    errors: [403, 429],
  },
  {
    method: 'post',
    path: '/api/voice/transcribe',
    summary:
      'Turn speech into text (Pro and Enterprise): a multipart upload with the audio (webm, ogg, wav, mpeg or mp4, at most 10 MB) and an optional language, or the audio as the body with its Content-Type and ?language=',
    tag: 'Voice',
    auth: true,
    body: TranscribeRequest,
    bodyContentType: 'multipart/form-data',
    response: TranscribeResponse,
    successStatus: 200,
    // 429: the person's transcriptions at once are all under way (refused before the recording is read).
    errors: [403, 413, 415, 429],
  },
  {
    method: 'post',
    path: '/api/translate',
    summary: 'Translate text into another language (Pro and Enterprise); `from` is detected when left out',
    tag: 'Languages',
    auth: true,
    body: TranslateRequest,
    response: TranslateResponse,
    successStatus: 200,
    // 429: the person's translations at once are all under way.
    errors: [403, 413, 429],
  },
  {
    method: 'get',
    path: '/api/voice/voices',
    summary: 'The voices of the installed speech engines (?language= to filter)',
    tag: 'Voice',
    auth: false,
    response: VoiceList,
  },
  {
    method: 'get',
    path: '/api/voice/samples',
    summary: 'Sample sentences anyone may have read aloud (the landing page demo)',
    tag: 'Voice',
    auth: false,
    response: VoiceSampleList,
  },
  {
    method: 'get',
    path: '/api/voice/audio/{id}',
    summary: 'The audio of a synthesis (its audioUrl), whole or by byte range; no token needed, it expires',
    tag: 'Voice',
    auth: false,
    params: { id: z.string() },
    successStatus: [200, 206],
    responseDescription:
      'The audio (audio/mpeg, audio/ogg or audio/wav), with X-Audio-Duration; Range requests get 206',
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/geo',
    summary: "Where the caller's IP address (or ?ip=) appears to be: country, city, time zone, currency, languages",
    tag: 'Languages',
    auth: false,
    query: GeoLookupQuery,
    response: GeoLookupResponse,
  },
  {
    method: 'get',
    path: '/api/voice/status',
    summary: 'Whether speech synthesis is available (ok or degraded), and the state of transcription and translation',
    tag: 'Voice',
    auth: false,
    response: VoiceStatus,
  },
  {
    method: 'get',
    path: '/api/languages',
    summary: 'The language catalogue with what Kasa can do in each language (?capability= to filter)',
    tag: 'Languages',
    auth: false,
    response: LanguageList,
  },
  {
    method: 'get',
    path: '/api/languages/{code}',
    summary: 'One language of the catalogue by its code (e.g. tw, ha, yo), with what Kasa can do in it',
    tag: 'Languages',
    auth: false,
    params: { code: z.string() },
    response: Language,
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/languages/detect',
    summary: 'Detect the language of a short text, with optional hints',
    tag: 'Languages',
    auth: false,
    body: DetectLanguageRequest,
    response: DetectLanguageResponse,
    successStatus: 200,
  },
  {
    method: 'get',
    path: '/api/status',
    summary: "The platform's health, probed live: overall and per service (public, for the status page)",
    tag: 'Status',
    auth: false,
    response: PlatformStatusResponse,
    errors: [429],
  },
  {
    method: 'get',
    path: '/.well-known/jwks.json',
    summary: 'The public keys (JWKS) that verify access tokens, for services that check Kasa tokens themselves',
    tag: 'Auth',
    auth: false,
    response: JsonWebKeySet,
    errors: [429],
  },
  {
    method: 'get',
    path: '/api/developer/services/status',
    summary: 'Health of every service',
    tag: 'Developer',
    auth: true,
    response: ServicesStatusResponse,
  },
  {
    method: 'get',
    path: '/api/developer/analytics',
    summary: 'Usage analytics of the caller',
    tag: 'Developer',
    auth: true,
    response: AnalyticsResponse,
  },
  {
    method: 'get',
    path: '/api/analytics/sessions',
    summary: "The caller's chat sessions with their message counts, newest first",
    tag: 'Developer',
    auth: true,
    query: AnalyticsSessionsQuery,
    response: AnalyticsSessionsResponse,
  },
  {
    method: 'get',
    path: '/api/analytics/usage',
    summary: "The caller's API calls per day, endpoint, status and key (days 1–90; keyId: one of the caller's keys)",
    tag: 'Developer',
    auth: true,
    query: UsageQuery,
    response: UsageResponse,
    errors: [404],
  },
];

/** Builds the OpenAPI 3.1 document served at GET /api/openapi.json. */
/**
 * A stable operationId from the method and path, which code generators name their functions after:
 * `GET /api/chat/sessions/{sessionId}` → `getChatSessionsBySessionId`, `GET /v1/models/{id}` → `getV1ModelsById`.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '/')
    .split(/[/.-]/)
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      const word = param ? `By${param[1]!.charAt(0).toUpperCase()}${param[1]!.slice(1)}` : segment;
      return word.charAt(0).toUpperCase() + word.slice(1);
    });
  return `${method.toLowerCase()}${words.join('')}`;
}

export function buildOpenApiDocument(serverUrl = '/') {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description:
      'An access token from /api/auth/login or /api/auth/register, or an API key (`ksk_…`, created at ' +
      '/api/developer/keys) with the scope the route needs (chat, voice or analytics). API keys are not accepted ' +
      'on /api/auth/*, /api/billing/*, /api/developer/keys*, /api/developer/team* or /api/developer/invitations*. ' +
      'Calls to the chat and voice routes count towards the plan’s monthly quota (Free 1,000, Pro 50,000, Enterprise unlimited); every key or user may make ' +
      '1,000 requests a minute.',
  });
  registry.register('Error', ErrorBody);
  const idempotencyKey = registry.registerParameter('IdempotencyKey', IdempotencyKeyHeader);
  const replayed = registry.registerComponent('headers', 'IdempotentReplayed', {
    description: '`true` when the answer is the recorded answer of an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  });

  for (const op of [
    ...operations,
    ...chatOperations,
    ...audioOperations,
    ...teamOperations,
    ...videoOperations,
    ...adminOperations,
  ]) {
    const idempotent = acceptsIdempotencyKey(op);
    const failures = [
      ...new Set([400, ...(op.auth ? [401] : []), ...(op.errors ?? []), ...(idempotent ? [409, 422] : []), 503]),
    ].sort((a, b) => a - b);
    const responses: Record<
      string,
      {
        description: string;
        content?: Record<string, { schema: ZodType }>;
        headers?: Record<string, { $ref: string }>;
      }
    > = {};
    if (op.document) {
      responses['200'] = {
        description: op.summary,
        content: { [op.document.contentType]: { schema: z.string().meta({ format: 'binary' }) } },
      };
    } else if (op.response) {
      const defaultStatus = op.method === 'post' && !op.path.includes('/login') ? 201 : 200;
      for (const status of [op.successStatus ?? defaultStatus].flat()) {
        responses[String(status)] = {
          description: op.summary,
          content: { 'application/json': { schema: op.response } },
        };
      }
    } else {
      // Without a JSON body: a redirect, unless the operation says otherwise (204 No Content).
      for (const status of [op.successStatus ?? 302].flat()) {
        responses[String(status)] = { description: op.responseDescription ?? op.summary };
      }
    }
    if (op.stream) {
      const streamed = {
        [op.stream.contentType]: { schema: op.stream.schema ?? z.string().meta({ format: 'binary' }) },
      };
      const shared = responses[String(op.stream.status)];
      responses[String(op.stream.status)] = shared
        ? {
            description: `${shared.description}. ${op.stream.description}`,
            content: { ...shared.content, ...streamed },
          }
        : { description: op.stream.description, content: streamed };
    }
    if (idempotent) {
      for (const [status, response] of Object.entries(responses))
        if (status.startsWith('2')) response.headers = { 'Idempotent-Replayed': replayed.ref };
    }
    for (const status of failures) {
      const general = errorDescriptions[status];
      const forKey = idempotent ? idempotencyErrorDescriptions[status] : undefined;
      responses[String(status)] = {
        // An operation's own meaning of a status goes first where the Idempotency-Key's does not already say it.
        description:
          forKey && general && op.errors?.includes(status) && !forKey.startsWith(general)
            ? `${general}; or ${forKey}`
            : (forKey ?? general ?? 'Error'),
        content: { 'application/json': { schema: ErrorBody } },
      };
    }
    registry.registerPath({
      method: op.method,
      path: op.path,
      operationId: operationIdOf(op.method, op.path),
      summary: op.summary,
      tags: [op.tag],
      security: op.auth ? [{ [bearer.name]: [] }] : [],
      request: {
        ...(op.params ? { params: z.object(op.params) } : {}),
        ...(op.query ? { query: op.query } : {}),
        ...(idempotent ? { headers: [idempotencyKey] } : {}),
        ...(op.body
          ? {
              body: {
                content: { [op.bodyContentType ?? 'application/json']: { schema: op.body } },
                required: !op.bodyOptional,
              },
            }
          : {}),
      },
      responses,
    });
  }

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Kasa API',
      version: '1.0.0',
      description:
        'Voice-first, multilingual AI assistants: auth, chat, voice and developer APIs. Authenticated POSTs take an ' +
        'Idempotency-Key header: a retry with the same key gets the first answer (Idempotent-Replayed: true) ' +
        'instead of creating a second session, message, key, checkout or job.',
    },
    servers: [{ url: serverUrl }],
  });
}
