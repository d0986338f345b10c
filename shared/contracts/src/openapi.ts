import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { ZodObject, ZodType } from 'zod';
import {
  ApiKeyList,
  CreateApiKeyRequest,
  CreateApiKeyResponse,
  MAX_ACTIVE_API_KEYS,
  type ApiKeyScope,
} from './apiKeys';
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
  LanguageListQuery,
  SynthesizeRequest,
  SynthesizeResponse,
  TranscribeRequest,
  TranscribeResponse,
  TranslateRequest,
  TranslateResponse,
  VoiceList,
  VoiceListQuery,
  VoiceSampleList,
  VoiceStatus,
} from './voice';
import { isOpenAIPath, openAIErrorOf, type OpenAIError } from './openaiErrors';
import { chatOperations } from './openapiChat';
import { teamOperations } from './openapiTeams';
import { adminOperations } from './openapiAdmin';
import { videoOperations } from './openapiVideo';
import { audioOperations } from './openapiAudio';
import { responsesOperations } from './openapiResponses';
import { webhookOperations } from './openapiWebhooks';
import { adminHealthOperations } from './openapiAdminHealth';
import { z } from './zod';

export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  /**
   * What the operation does, in a few words: at most MAX_SUMMARY_LENGTH characters and no final period (lists, the
   * Docs tab and generated clients show it on one line). A longer one is cut at a clause, and given whole at the
   * start of the description.
   */
  summary: string;
  /**
   * What a caller needs to know beyond the summary: rules, limits, the answers it gives. The document adds who may call
   * it (the credential, the API key scope, the limits that apply), so an operation needs none of its own.
   */
  description?: string;
  /** The operation's area: one of API_TAGS. */
  tag: string;
  auth: boolean;
  body?: ZodType;
  /** The body's media type when not JSON (e.g. multipart/form-data for an upload). */
  bodyContentType?: string;
  /** The body may be left out (every field of `body` is optional). */
  bodyOptional?: boolean;
  response?: ZodType;
  responseDescription?: string;
  /**
   * Status codes the operation itself answers with, beyond those the document gives every operation of its kind
   * (see `failureStatusesOf`: 400, 503, and 401, 403, 404, 409, 422 and 429 where the gateway or the path makes them).
   */
  errors?: number[];
  /** What a failure status means on this operation when it is more than the general meaning (which role a 403 wants). */
  errorNotes?: Partial<Record<number, string>>;
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
  /** A JSON request body and a JSON success answer as the API takes and gives them (tests parse each with its schema). */
  example?: { request?: unknown; response?: unknown };
}

/** The longest summary an operation shows. */
export const MAX_SUMMARY_LENGTH = 80;

/**
 * An operation's summary as the document shows it: at most MAX_SUMMARY_LENGTH characters, without a final period.
 * A longer one is cut before its last clause that fits (at a colon, semicolon, parenthesis, comma or dash), else at
 * a word with an ellipsis; `whole` is then the full sentence, for the description.
 */
export function shortSummary(summary: string): { summary: string; whole?: string } {
  const text = summary.trim().replace(/\.+$/, '');
  if (text.length <= MAX_SUMMARY_LENGTH) return { summary: text };
  const head = text.slice(0, MAX_SUMMARY_LENGTH + 1);
  // The last clause boundary that fits, outside parentheses.
  const balanced = (end: number) => head.slice(0, end).split('(').length === head.slice(0, end).split(')').length;
  const boundaries = [...head.matchAll(/: |; | \(|, | — | – /g)].map((match) => match.index);
  const clause = boundaries.filter((index) => index >= 20 && balanced(index)).pop();
  const short =
    clause !== undefined ? text.slice(0, clause) : `${text.slice(0, head.lastIndexOf(' ', MAX_SUMMARY_LENGTH - 1))}…`;
  return { summary: short, whole: `${text}.` };
}

/** The areas of the API (the document's tags), each with what its operations are for. */
export const API_TAGS: Record<string, string> = {
  Auth:
    'Accounts: registration, sign-in and sign-out, the signed-in user and their saved preferences, and the public ' +
    'keys that verify access tokens',
  Billing: 'Plans and add-ons, checkouts, payments and receipts, and the subscription with its processor',
  Chat:
    'Personas, chat sessions and their messages, replies whole or streamed (stopped, followed, edited, regenerated), ' +
    'attachments, search and shared conversations',
  Developer: 'API keys, the health of the services, and the caller’s usage analytics',
  Languages: 'The language catalogue, language detection, translation and geo lookup',
  'OpenAI-compatible':
    'OpenAI’s API shapes over Kasa’s personas and voices, so that OpenAI’s client libraries work unchanged: models, ' +
    'chat completions (tools, JSON output, streaming), embeddings, speech and transcription',
  Operators:
    'What the people who run this Kasa manage: people, plans and suspensions, the audit log, the AI provider chain ' +
    'and the local model (to anyone else these routes do not exist)',
  Public: 'The website’s forms: the newsletter and messages to the Kasa team',
  Status: 'The platform’s health, for the public status page',
  Teams: 'Enterprise teams: members and roles, invitations, and the team’s audit log',
  Video: 'Video generation (Enterprise): queued jobs, their progress, captions and the finished videos',
  Voice: 'Text to speech and speech to text, the voices, and the audio they make',
  Webhooks: 'Signed deliveries of Kasa’s events to the developer’s own endpoints, and their delivery log',
};

/**
 * How the gateway lets a call through to an operation (gateway/config/gateway.config.yml; openapi.test.ts checks
 * each operation against the pipeline that serves it):
 * - `public`: no credential; an allowance of requests per client address (kasa-rate-limit);
 * - `account`: access tokens only, no API key (account, billing, key and team management); no rate limit or quota;
 * - `operator`: an operator's access token; to anyone else the route does not exist (404);
 * - `api`: an access token or an API key with `scope`; the per-minute limit, and the plan's monthly quota when
 *   `monthly` (kasa-quota).
 */
export type GatewayAccess =
  | { kind: 'public' }
  | { kind: 'account' }
  | { kind: 'operator' }
  | { kind: 'api'; scope: ApiKeyScope; monthly: boolean };

/** The API key scope each protected API area asks for, first match wins (`/x/` a prefix, `/x` the path and below). */
const API_KEY_AREAS: Array<{ paths: string[]; scope: ApiKeyScope; monthly: boolean }> = [
  { paths: ['/v1/audio/'], scope: 'voice', monthly: true },
  { paths: ['/api/personas', '/api/chat/', '/v1/'], scope: 'chat', monthly: true },
  { paths: ['/api/voice/', '/api/translate', '/api/video/'], scope: 'voice', monthly: true },
  {
    paths: ['/api/developer/services/', '/api/developer/analytics', '/api/analytics/', '/api/developer/webhooks'],
    scope: 'analytics',
    monthly: false,
  },
];

const underPath = (path: string, area: string): boolean =>
  area.endsWith('/') ? path.startsWith(area) : path === area || path.startsWith(`${area}/`);

/** How the gateway admits calls to an operation: see GatewayAccess. */
export function gatewayAccessOf(op: Pick<Operation, 'path' | 'auth'>): GatewayAccess {
  if (!op.auth) return { kind: 'public' };
  if (op.path.startsWith('/api/admin/')) return { kind: 'operator' };
  const area = API_KEY_AREAS.find(({ paths }) => paths.some((path) => underPath(op.path, path)));
  return area ? { kind: 'api', scope: area.scope, monthly: area.monthly } : { kind: 'account' };
}

/** Who may call an operation and what limits apply, in words: the last paragraph of every description. */
function accessNoteOf(access: GatewayAccess): string {
  switch (access.kind) {
    case 'public':
      return 'No credential needed. Each client address has an allowance of requests (past it: 429 with Retry-After).';
    case 'account':
      return 'Needs an access token from sign-in: API keys are not accepted here.';
    case 'operator':
      return (
        'Operators of this Kasa only: to anyone else (another person’s token, an API key or no credential) it ' +
        'answers 404, as an unknown path does.'
      );
    case 'api':
      return (
        `Needs an access token or an API key with the \`${access.scope}\` scope. ` +
        (access.monthly
          ? 'Each call counts towards the plan’s monthly API calls; every key or person may make 1,000 requests a minute.'
          : 'Calls do not count towards the monthly quota; every key or person may make 1,000 requests a minute.')
      );
  }
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
  429: 'Too many requests (see Retry-After)',
  502:
    'invalid_model_output: the AI provider’s reply was not the JSON that response_format asked for (not JSON, or ' +
    'not valid against the schema); `details` says what is wrong',
  503: 'A service behind the gateway is unavailable',
};

/** What 400, 409 and 422 also mean on an operation that takes an Idempotency-Key. */
const idempotencyErrorDescriptions: Record<number, string> = {
  400: 'the Idempotency-Key is not 1–255 printable ASCII characters',
  409: 'idempotency_in_progress: a request with the same Idempotency-Key is still running; retry after Retry-After',
  422: 'idempotency_key_reused: the Idempotency-Key was already used with a different body, method or path',
};

/**
 * Whether the gateway honours an `Idempotency-Key` on an operation: every POST that needs a bearer credential (the
 * gateway's kasa-idempotency policy sits on every authenticated pipeline and acts on POST only).
 */
export const acceptsIdempotencyKey = (op: Pick<Operation, 'method' | 'auth'>): boolean =>
  op.method === 'post' && op.auth;

/**
 * The failure statuses an operation answers with: its own `errors`, and those its kind brings — 400 and 503 always;
 * 401 with a credential (operators' routes answer 404 instead); 403 where an API key's scope is checked; 404 where
 * the path names something (or the route is an operator's); 409 and 422 with an Idempotency-Key; 429 where the
 * gateway counts calls (public routes' allowance per address, the API's limits and quota).
 */
export function failureStatusesOf(op: Pick<Operation, 'method' | 'path' | 'auth' | 'errors'>): number[] {
  const access = gatewayAccessOf(op);
  const statuses = new Set([400, 503, ...(op.errors ?? [])]);
  if (op.auth && access.kind !== 'operator') statuses.add(401);
  if (access.kind === 'api') statuses.add(403);
  if (access.kind === 'operator' || op.path.includes('{')) statuses.add(404);
  if (acceptsIdempotencyKey(op)) [409, 422].forEach((status) => statuses.add(status));
  if (access.kind === 'public' || access.kind === 'api') statuses.add(429);
  return [...statuses].sort((a, b) => a - b);
}

/** What a failure status means on an operation: its own note and what the gateway adds, joined by "or". */
function failureDescriptionOf(op: Operation, status: number): string {
  const access = gatewayAccessOf(op);
  const own = op.errorNotes?.[status];
  const listed = op.errors?.includes(status) ?? false;
  const parts: Array<string | undefined> = [];
  switch (status) {
    case 401:
      parts.push(
        own ??
          (access.kind === 'account'
            ? 'The access token is missing, invalid, expired or revoked, or the credential is an API key'
            : errorDescriptions[401]),
      );
      break;
    case 403:
      parts.push(own ?? (listed ? errorDescriptions[403] : undefined));
      if (access.kind === 'api') parts.push(`The API key does not have the \`${access.scope}\` scope`);
      break;
    case 404:
      parts.push(
        own ?? (access.kind === 'operator' ? 'Not found, or the caller is not an operator' : errorDescriptions[404]),
      );
      break;
    case 429:
      parts.push(own);
      if (access.kind === 'public') parts.push('Past this address’s allowance of requests (see Retry-After)');
      else if (access.kind === 'api')
        parts.push(
          access.monthly
            ? 'Past the per-minute limit (see Retry-After and RateLimit-*), or the plan’s monthly API calls are used up (quota_exceeded)'
            : 'Past the per-minute limit (see Retry-After and RateLimit-*)',
        );
      else if (!own) parts.push(errorDescriptions[429]);
      break;
    default:
      parts.push(own ?? errorDescriptions[status] ?? 'Error');
  }
  const ownMeaning = Boolean(own) || listed || status === 400;
  const general = joinAlternatives(parts.filter((part): part is string => Boolean(part))) || 'Error';
  const forKey = acceptsIdempotencyKey(op) ? idempotencyErrorDescriptions[status] : undefined;
  if (!forKey) return general;
  // An operation's own meaning of the status first, then the Idempotency-Key's.
  return ownMeaning ? joinAlternatives([general, forKey]) : forKey;
}

/** Meanings joined by "; or", each after the first starting in lower case (unless it starts with an acronym). */
const joinAlternatives = (parts: string[]): string =>
  parts
    .map((part, index) => (index > 0 && /^[A-Z][a-z]/.test(part) ? `${part[0]!.toLowerCase()}${part.slice(1)}` : part))
    .join('; or ');

/** What each path parameter is, by name (`id`: by the collection it is in). */
const PATH_PARAMETERS: Record<string, string> = {
  sessionId: 'The chat session’s id',
  messageId: 'The message’s id (any version of it)',
  keyId: 'The API key’s id',
  invitationId: 'The invitation’s id',
  userId: 'The member’s account id',
  reference: 'The payment’s transaction reference (KASA-XXXXXXXXXX)',
  code: 'The language code, as the catalogue gives it (e.g. tw, ha, yo, gaa)',
  token: 'The shared link’s token',
  name: 'The provider’s name in the chain',
  deliveryId: 'The delivery’s id, as the delivery log gives it',
};
const IDS_IN: Record<string, string> = {
  attachments: 'The attachment’s id',
  personas: 'The custom persona’s id',
  generations: 'The video job’s id',
  files: 'The video’s id (the end of the job’s videoUrl)',
  audio: 'The audio’s id (the end of the synthesis’s audioUrl)',
  models: 'The model: a persona’s id',
  people: 'The account id',
  webhooks: 'The webhook endpoint’s id',
  responses: 'The response’s id (`resp_…`)',
};
/** What the query parameters are, by name, where their schema does not say. */
const QUERY_PARAMETERS: Record<string, string> = {
  limit: 'How many to answer with at most',
  cursor: 'Where the page starts: the `nextCursor` of the page before',
  before: 'Where the page starts: the `nextCursor` of the page before',
  q: 'The text to look for (literal, case-insensitive)',
  from: 'Only entries at or after this time (ISO 8601)',
  to: 'Only entries before this time (ISO 8601)',
  action: 'Only entries of this action',
  actor: 'Only entries by this account id',
  target: 'Only entries about this id',
  days: 'How many days back from today (UTC)',
  keyId: 'Only the calls made with this API key (one of the caller’s)',
  ip: 'The IP address to look up instead of the caller’s',
  name: 'The file’s name, as it was on the sender’s device',
  status: 'Only jobs in this state',
  capability: 'Only the languages Kasa can do this in',
  language: 'A language code: only what is in this language',
  month: 'The calendar month (YYYY-MM, UTC); the current one when left out',
};

interface ParameterObject {
  name: string;
  in: string;
  description?: string;
}

/** A description for every parameter that has none, from the tables above. */
function describeParameters(path: string, parameters: ParameterObject[] | undefined): void {
  for (const parameter of parameters ?? []) {
    if (parameter.description || !('in' in parameter)) continue;
    const collection = path.split(`/{${parameter.name}}`)[0]?.split('/').pop() ?? '';
    const description =
      parameter.in === 'path'
        ? (PATH_PARAMETERS[parameter.name] ?? (parameter.name === 'id' ? IDS_IN[collection] : undefined))
        : parameter.in === 'query'
          ? QUERY_PARAMETERS[parameter.name]
          : undefined;
    if (description) parameter.description = description;
  }
}

/**
 * Patterns as JSON Schema tools read them. The generator writes a pattern from the RegExp's text, flags and all
 * (`^[^\p{Cc}]+$/u`): JSON Schema's patterns are Unicode-aware already, so the `u` flag goes (other flags have no JSON
 * Schema form, and the schemas use none: openapi.test.ts checks). And the control characters, `\p{Cc}`, are written
 * as their ranges, which every regex engine reads alike (Python's, and validators that match without Unicode mode).
 */
function portablePatterns(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(portablePatterns);
  if (!node || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (typeof record.pattern === 'string')
    record.pattern = record.pattern
      .replace(/(?<!\\)\/[uv]$/, '')
      .replace(/\[(\^?)\\p\{Cc\}\]/g, '[$1\\x00-\\x1f\\x7f-\\x9f]');
  Object.values(record).forEach(portablePatterns);
}

/** The error body on the OpenAI-compatible API (/v1/*): Kasa's own, with OpenAI's `error` object beside it. */
const OpenAIErrorBody = ErrorBody.extend({
  error: z
    .object({
      message: z.string(),
      type: z.string().openapi({ example: 'invalid_request_error' }),
      param: z.string().nullable(),
      code: z.string().nullable(),
    })
    .openapi('OpenAIError', { description: 'OpenAI’s error object, which OpenAI’s client libraries read' }),
}).openapi('OpenAIErrorBody');
// The schema describes what openAIErrorOf() makes.
type SameAs<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const openAIErrorMatches: SameAs<z.infer<typeof OpenAIErrorBody>['error'], OpenAIError> = true;
void openAIErrorMatches;

/** The example of the error body: one answer of every failure's shape. */
const ERROR_EXAMPLE = {
  message: 'Not found',
  code: 'not_found',
  requestId: '4bf92f3577b34da6a3ce929d0e0e4736',
};

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
export {
  adminHealthOperations,
  adminOperations,
  audioOperations,
  chatOperations,
  responsesOperations,
  teamOperations,
  videoOperations,
  webhookOperations,
};

/** Values the examples share, so that they tell one story. */
const EXAMPLE = {
  time: '2026-03-14T09:30:00.000Z',
  userId: '665f1c2e9b1e8a3d4c2b1a09',
  sessionId: '665f1d409b1e8a3d4c2b1a12',
  keyId: '665f1e019b1e8a3d4c2b1a20',
};
const exampleUser = {
  id: EXAMPLE.userId,
  username: 'ama',
  email: 'ama@kasa.example',
  subscriptionTier: 'pro',
  createdAt: EXAMPLE.time,
};
const exampleApiKey = {
  id: EXAMPLE.keyId,
  name: 'Backend',
  maskedKey: 'ksk_Q2h4vX9a…f3Kp',
  scopes: ['chat'],
  createdAt: EXAMPLE.time,
  expiresAt: '2026-06-12T09:30:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
  teamId: null,
};
const QUOTA_EXAMPLE = { period: '2026-03', used: 400, limit: 50_000 };
const exampleToken = 'eyJhbGciOiJSUzI1NiIsImtpZCI6Imthc2EtMSJ9.eyJzdWIiOiI2NjVmMWMyZSJ9.c2lnbmF0dXJl';

/** Every public operation of Kasa, documented from the same zod schemas that validate it. */
export const operations: Operation[] = [
  {
    method: 'post',
    path: '/api/auth/register',
    summary: 'Create an account',
    description: 'Answers with an access token and the new account, on the Free plan.',
    tag: 'Auth',
    auth: false,
    body: RegisterRequest,
    response: AuthResponse,
    errors: [403, 409, 429],
    errorNotes: {
      403: 'sso_required: the address’s domain signs in through its organisation’s single sign-on',
      409: 'The email address or the username cannot be used for a new account',
    },
    // No request example: its username pattern (\p{L}, \p{N}) needs Unicode mode, which Spectral's example check
    // leaves off (stoplightio/spectral#2419), so a valid username would read as invalid there.
    example: {
      response: { success: true, token: exampleToken, user: exampleUser, message: 'Account created. Welcome to Kasa!' },
    },
  },
  {
    method: 'post',
    path: '/api/auth/login',
    summary: 'Sign in with email and password',
    description: 'Answers with an access token and the account.',
    tag: 'Auth',
    auth: false,
    body: LoginRequest,
    response: AuthResponse,
    errors: [401, 403, 429],
    errorNotes: {
      401: 'Invalid email or password',
      403: 'The account is suspended (account_suspended), or its domain signs in through single sign-on (sso_required)',
      429: 'Too many failed attempts for this account',
    },
    example: {
      request: { email: 'ama@kasa.example', password: 'correct horse battery' },
      response: { success: true, token: exampleToken, user: exampleUser, message: 'Signed in' },
    },
  },
  {
    method: 'get',
    path: '/api/auth/me',
    summary: 'The signed-in user',
    description: 'With `operator`: whether they are an operator of this Kasa, read afresh on every call.',
    tag: 'Auth',
    auth: true,
    response: MeResponse,
    example: { response: { success: true, user: { ...exampleUser, operator: false } } },
  },
  {
    method: 'get',
    path: '/api/auth/preferences/theme',
    summary: 'The signed-in user’s saved theme',
    description: 'Null until one is saved.',
    tag: 'Auth',
    auth: true,
    response: ThemePreferenceResponse,
  },
  {
    method: 'put',
    path: '/api/auth/preferences/theme',
    summary: 'Save the signed-in user’s theme',
    description: 'So that it follows them to other browsers.',
    tag: 'Auth',
    auth: true,
    body: ThemeSettings,
    response: ThemePreferenceResponse,
  },
  {
    method: 'get',
    path: '/api/auth/preferences/tours',
    summary: 'The guided tours the signed-in user completed or skipped',
    description: 'Null until they finish or skip one.',
    tag: 'Auth',
    auth: true,
    response: TourPreferenceResponse,
  },
  {
    method: 'put',
    path: '/api/auth/preferences/tours',
    summary: 'Save the guided tours the signed-in user completed or skipped',
    description: 'So that they do not come back.',
    tag: 'Auth',
    auth: true,
    body: TourPreferences,
    response: TourPreferenceResponse,
  },
  {
    method: 'get',
    path: '/api/auth/preferences/language',
    summary: 'The signed-in user’s interface language',
    description: 'Null until they pick one.',
    tag: 'Auth',
    auth: true,
    response: LanguagePreferenceResponse,
  },
  {
    method: 'put',
    path: '/api/auth/preferences/language',
    summary: 'Save the signed-in user’s interface language',
    description: 'So that it follows them to other browsers.',
    tag: 'Auth',
    auth: true,
    body: LanguagePreference,
    response: LanguagePreferenceResponse,
  },
  {
    method: 'get',
    path: '/api/auth/logout',
    summary: 'Sign out in the browser',
    description:
      'Revokes the token and clears the session cookie, then redirects the browser to /. A sign-out started by ' +
      'another site is refused.',
    tag: 'Auth',
    auth: false,
    responseDescription: 'Redirect to /',
    errors: [403],
    errorNotes: { 403: 'The request came from another site' },
  },
  {
    method: 'post',
    path: '/api/auth/logout',
    summary: 'Sign out an API client',
    description: 'Revokes the bearer token (and clears the session cookie); answered in JSON.',
    tag: 'Auth',
    auth: false,
    response: LogoutResponse,
    successStatus: 200,
    errors: [403],
    errorNotes: { 403: 'The request came from another site' },
  },
  {
    method: 'get',
    path: '/api/billing/plans',
    summary: 'The plans, add-ons and pricing questions',
    description:
      'The plans (Free, Pro, Enterprise) with their prices, the premium add-ons, the pricing FAQ, and `testMode` ' +
      '(checkouts take no money on this server).',
    tag: 'Billing',
    auth: false,
    response: PlansResponse,
  },
  {
    method: 'post',
    path: '/api/billing/checkout',
    summary: 'Choose a plan',
    description:
      '200 when there is nothing to buy, 202 when the sales team will get in touch (Enterprise), 201 with the ' +
      'payment (and, once paid, a fresh token carrying the new tier).',
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
    summary: 'Buy an add-on pack of extra API calls',
    description:
      'Through the same checkout as a plan: 201 with the payment; once the processor confirms it, the calls are ' +
      'added to this month’s quota.',
    tag: 'Billing',
    auth: true,
    body: AddOnCheckoutRequest,
    response: CheckoutResponse,
    successStatus: 201,
    errors: [403, 409],
    errorNotes: { 403: 'The caller’s plan cannot buy this add-on (the answer names the plan that can)' },
  },
  {
    method: 'get',
    path: '/api/billing/history',
    summary: 'The caller’s completed payments',
    description: 'Newest first, a page at a time, each with its receipt’s addresses.',
    tag: 'Billing',
    auth: true,
    query: BillingHistoryQuery,
    response: BillingHistoryResponse,
  },
  {
    method: 'get',
    path: '/api/billing/receipts/{reference}',
    summary: 'A receipt as an HTML page',
    description: 'The receipt of one of the caller’s completed payments; someone else’s is a 404.',
    tag: 'Billing',
    auth: true,
    document: { contentType: 'text/html' },
    responseDescription: 'The receipt',
    params: { reference: PaymentReference },
  },
  {
    method: 'get',
    path: '/api/billing/receipts/{reference}/receipt.pdf',
    summary: 'A receipt as a PDF download',
    tag: 'Billing',
    auth: true,
    document: { contentType: 'application/pdf' },
    responseDescription: 'The receipt',
    params: { reference: PaymentReference },
  },
  {
    method: 'get',
    path: '/api/billing/checkout/{reference}',
    summary: 'One of the caller’s payments, by its transaction reference',
    tag: 'Billing',
    auth: true,
    response: Payment,
    params: { reference: PaymentReference },
  },
  {
    method: 'post',
    path: '/api/billing/checkout/{reference}/verify',
    summary: 'Ask the payment processor about a checkout',
    description:
      'The success page calls it on return: once the processor confirms the payment, amount and currency, the plan ' +
      'changes and the answer carries a fresh token with the new tier; until then `status: pending`. Changes ' +
      'nothing on a payment the processor does not confirm.',
    tag: 'Billing',
    auth: true,
    response: CheckoutResponse,
    successStatus: 200,
    params: { reference: PaymentReference },
  },
  {
    method: 'get',
    path: '/api/billing/subscription',
    summary: 'The caller’s subscription',
    description:
      'Processor, plan, status (active, past_due, canceled), the end of the period paid for, whether it ends there, ' +
      'the grace period after a failed renewal, and what can be done with it.',
    tag: 'Billing',
    auth: true,
    response: SubscriptionResponse,
  },
  {
    method: 'post',
    path: '/api/billing/portal',
    summary: 'A page of the payment processor to manage the subscription',
    description:
      'Where the caller changes their card or cancels: Stripe’s Customer Portal, Paystack’s subscription page.',
    tag: 'Billing',
    auth: true,
    response: BillingPortalResponse,
    successStatus: 200,
    errors: [404, 409],
    errorNotes: { 404: 'The caller has no subscription', 409: 'The subscription has nothing to manage there' },
  },
  {
    method: 'post',
    path: '/api/billing/subscription/cancel',
    summary: 'Cancel at the end of the period paid for',
    description:
      'The plan stays until `currentPeriodEnd`, then the account is on Free with its data kept; it can be resumed ' +
      'until then.',
    tag: 'Billing',
    auth: true,
    response: SubscriptionResponse,
    successStatus: 200,
    errors: [404, 409],
    errorNotes: { 404: 'The caller has no subscription', 409: 'The subscription cannot be cancelled now' },
  },
  {
    method: 'post',
    path: '/api/billing/subscription/resume',
    summary: 'Undo a cancellation before the period ends',
    description: 'The subscription renews again.',
    tag: 'Billing',
    auth: true,
    response: SubscriptionResponse,
    successStatus: 200,
    errors: [404, 409],
    errorNotes: { 404: 'The caller has no subscription', 409: 'The subscription is not cancelled, or has ended' },
  },
  {
    method: 'post',
    path: '/api/newsletter',
    summary: 'Subscribe an email address to the newsletter',
    description: 'The same answer if it already is.',
    tag: 'Public',
    auth: false,
    body: NewsletterSubscribeRequest,
    response: NewsletterSubscribeResponse,
    successStatus: 200,
    errors: [413],
  },
  {
    method: 'post',
    path: '/api/contact',
    summary: 'Send a message to the Kasa team',
    description: 'Answers with a reference to quote.',
    tag: 'Public',
    auth: false,
    body: ContactRequest,
    response: ContactResponse,
    errors: [413],
  },
  {
    method: 'post',
    path: '/api/developer/keys',
    summary: 'Create an API key',
    description:
      'The answer shows the full key, once: Kasa keeps only a hash of it. `team: true` makes a key of the caller’s ' +
      'team, whose calls count on the team’s quota (owners and admins).',
    tag: 'Developer',
    auth: true,
    body: CreateApiKeyRequest,
    response: CreateApiKeyResponse,
    errors: [403, 409],
    errorNotes: {
      403: 'A team key, asked for by someone who is not the team’s owner or an admin (or is in no team)',
      409: `The caller already holds ${MAX_ACTIVE_API_KEYS} active API keys`,
    },
    example: {
      request: { name: 'Backend', scopes: ['chat'], expiresInDays: 90 },
      response: {
        secret: 'ksk_Q2h4vX9aLr7mTzB0wNcE5yUe1oIpDs3GkHj6qVt8f3Kp',
        key: exampleApiKey,
        message: 'Copy this key now: Kasa keeps only a hash of it and cannot show it again.',
      },
    },
  },
  {
    method: 'get',
    path: '/api/developer/keys',
    summary: 'The signed-in user’s API keys',
    description: 'Masked, with when each was created, last used, expires or was revoked.',
    tag: 'Developer',
    auth: true,
    response: ApiKeyList,
    example: { response: { keys: [exampleApiKey] } },
  },
  {
    method: 'delete',
    path: '/api/developer/keys/{keyId}',
    summary: 'Revoke an API key',
    description: 'Calls with it are refused within seconds. A team key may be revoked by the team’s owner and admins.',
    tag: 'Developer',
    auth: true,
    successStatus: 204,
    responseDescription: 'Revoked (also when it already was)',
    errors: [403],
    errorNotes: { 403: 'A team key, and the caller is not the team’s owner or an admin' },
    params: { keyId: z.string() },
  },
  {
    method: 'get',
    path: '/api/personas',
    summary: 'The AI personas',
    description: 'Kasa’s six personas, then the caller’s own custom ones.',
    tag: 'Chat',
    auth: true,
    response: z.array(Persona),
    example: {
      response: [
        {
          id: 'kasa',
          name: 'Kasa',
          expertise: 'General assistant',
          systemPrompt: 'You are Kasa, a warm, concise general assistant.',
          avatar: '🗣️',
          color: '#6d28d9',
          greeting: 'Akwaaba! I am Kasa. Ask me anything, in the language you speak best.',
        },
      ],
    },
  },
  {
    method: 'post',
    path: '/api/chat/sessions',
    summary: 'Start a chat session with a persona',
    tag: 'Chat',
    auth: true,
    body: CreateSessionRequest,
    response: Session,
    example: {
      request: { personaId: 'nana', title: 'Weekend in Kumasi' },
      response: { id: EXAMPLE.sessionId, personaId: 'nana', title: 'Weekend in Kumasi', createdAt: EXAMPLE.time },
    },
  },
  {
    method: 'post',
    path: '/api/chat/sessions/{sessionId}/messages',
    summary: 'Send a message and get the reply',
    description:
      'Answers with the stored reply (its user message’s id in X-Kasa-User-Message-Id), or streams it with Accept: ' +
      'text/event-stream.',
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
    errors: [403, 409, 429],
    errorNotes: {
      403: 'The plan does not include attachments (Pro and Enterprise)',
      409: 'An attachment was already sent in another conversation',
      429: 'Ten replies of this person are being written',
    },
    params: { sessionId: z.string() },
    example: {
      request: { role: 'user', content: 'What should I see at Kejetia?', type: 'text', language: 'auto' },
      response: {
        id: '665f1d7a9b1e8a3d4c2b1a15',
        role: 'assistant',
        content: 'Kejetia Market is one of the largest markets in West Africa: start early, near the central gate.',
        timestamp: EXAMPLE.time,
      },
    },
  },
  {
    method: 'post',
    path: '/api/voice/synthesize',
    summary: 'Turn text into speech',
    description:
      'Pro and Enterprise (the samples of /api/voice/samples need no token). With Accept: audio/mpeg the audio ' +
      'streams as it is made.',
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
    errors: [403, 429],
    errorNotes: { 429: 'The person’s syntheses at once (VOICE_SYNTHESIS_MAX_CONCURRENT) are all under way' },
    example: {
      request: { text: 'Akwaaba! Welcome to Kasa.', language: 'en' },
      response: {
        audioUrl: '/api/voice/audio/9f2c4e7a1b3d5f60',
        duration: 1.8,
        id: '9f2c4e7a1b3d5f60',
        contentType: 'audio/mpeg',
        language: 'en',
        voice: 'en-gb',
        engine: 'espeak-ng',
      },
    },
  },
  {
    method: 'post',
    path: '/api/voice/transcribe',
    summary: 'Turn speech into text',
    description:
      'Pro and Enterprise: a multipart upload with the audio (webm, ogg, wav, mpeg or mp4, at most 10 MB) and an ' +
      'optional language, or the audio as the body with its Content-Type and ?language=.',
    tag: 'Voice',
    auth: true,
    body: TranscribeRequest,
    bodyContentType: 'multipart/form-data',
    response: TranscribeResponse,
    successStatus: 200,
    errors: [403, 413, 415, 429],
    errorNotes: {
      429: 'The person’s transcriptions at once are all under way (refused before the recording is read)',
    },
  },
  {
    method: 'post',
    path: '/api/translate',
    summary: 'Translate text into another language',
    description: 'Pro and Enterprise; `from` is detected when left out.',
    tag: 'Languages',
    auth: true,
    body: TranslateRequest,
    response: TranslateResponse,
    successStatus: 200,
    errors: [403, 413, 429],
    errorNotes: { 429: 'The person’s translations at once are all under way' },
    example: {
      request: { text: 'Where is the market?', to: 'tw' },
      response: { text: 'Ɛhe na dwam no wɔ?', from: 'en', to: 'tw', provider: 'openai' },
    },
  },
  {
    method: 'get',
    path: '/api/voice/voices',
    summary: 'The voices of the installed speech engines',
    description: 'All of them, or those of one language with ?language=.',
    tag: 'Voice',
    auth: false,
    query: VoiceListQuery,
    response: VoiceList,
  },
  {
    method: 'get',
    path: '/api/voice/samples',
    summary: 'Sample sentences anyone may have read aloud',
    description: 'The landing page’s demo: /api/voice/synthesize reads these without a token.',
    tag: 'Voice',
    auth: false,
    response: VoiceSampleList,
  },
  {
    method: 'get',
    path: '/api/voice/audio/{id}',
    summary: 'The audio of a synthesis, whole or by byte range',
    description: 'A synthesis’s audioUrl: no token needed (the address is the secret), and it expires.',
    tag: 'Voice',
    auth: false,
    params: { id: z.string() },
    successStatus: [200, 206],
    responseDescription:
      'The audio (audio/mpeg, audio/ogg or audio/wav), with X-Audio-Duration; Range requests get 206',
  },
  {
    method: 'get',
    path: '/api/geo',
    summary: 'Where an IP address appears to be',
    description: 'The caller’s address, or ?ip=: country, city, time zone, currency and languages.',
    tag: 'Languages',
    auth: false,
    query: GeoLookupQuery,
    response: GeoLookupResponse,
  },
  {
    method: 'get',
    path: '/api/voice/status',
    summary: 'Whether speech synthesis is available',
    description: 'ok or degraded, and the state of transcription and translation.',
    tag: 'Voice',
    auth: false,
    response: VoiceStatus,
  },
  {
    method: 'get',
    path: '/api/languages',
    summary: 'The language catalogue',
    description: 'Every language with what Kasa can do in it: detect, chat, speak, listen, translate.',
    tag: 'Languages',
    auth: false,
    query: LanguageListQuery,
    response: LanguageList,
  },
  {
    method: 'get',
    path: '/api/languages/{code}',
    summary: 'One language of the catalogue',
    description: 'By its code (e.g. tw, ha, yo), with what Kasa can do in it.',
    tag: 'Languages',
    auth: false,
    params: { code: z.string() },
    response: Language,
  },
  {
    method: 'post',
    path: '/api/languages/detect',
    summary: 'Detect the language of a short text',
    description:
      'Hints make it surer: the language the user chose, the browser’s locale, their latest messages. `reliable: ' +
      'false` means the text is too short or mixed for a calibrated answer.',
    tag: 'Languages',
    auth: false,
    body: DetectLanguageRequest,
    response: DetectLanguageResponse,
    successStatus: 200,
    example: {
      request: { text: 'Me din de Ama. Wo ho te sɛn?', hints: { browserLocale: 'en-GH' } },
      response: {
        language: 'tw',
        name: 'Twi',
        confidence: 0.93,
        reliable: true,
        alternatives: [{ language: 'ee', name: 'Ewe', confidence: 0.04 }],
      },
    },
  },
  {
    method: 'get',
    path: '/api/status',
    summary: 'The platform’s health, probed live',
    description: 'Overall and per service: public, for the status page.',
    tag: 'Status',
    auth: false,
    response: PlatformStatusResponse,
    example: {
      response: {
        status: 'operational',
        checkedAt: EXAMPLE.time,
        services: [
          { name: 'gateway', status: 'operational', latencyMs: 1 },
          { name: 'chat', status: 'operational', latencyMs: 4 },
        ],
      },
    },
  },
  {
    method: 'get',
    path: '/.well-known/jwks.json',
    summary: 'The public keys that verify access tokens',
    description: 'A JSON Web Key Set (RS256), for services that check Kasa’s tokens themselves.',
    tag: 'Auth',
    auth: false,
    response: JsonWebKeySet,
  },
  {
    method: 'get',
    path: '/api/developer/services/status',
    summary: 'Health of every service',
    description: 'Each service’s state, uptime, requests and errors, and the platform’s overall figures.',
    tag: 'Developer',
    auth: true,
    response: ServicesStatusResponse,
  },
  {
    method: 'get',
    path: '/api/developer/analytics',
    summary: 'Usage analytics of the caller',
    description:
      'Calls by API area and this month’s quota, response times and error rate over 30 days, sessions per persona, ' +
      'messages per language, and speech and video made.',
    tag: 'Developer',
    auth: true,
    response: AnalyticsResponse,
    example: {
      response: {
        data: {
          usage: { breakdown: { chat: 82.5, voice: 17.5 }, totalCalls: 400, quota: QUOTA_EXAMPLE },
          performance: { averageResponseTime: 182, uptime: 99.9, errorRate: 0.5 },
          personaUsage: { kasa: 12, nana: 3 },
          languageUsage: { en: 40, tw: 22 },
          sessions: 15,
          messages: 62,
          voice: { speechClips: 9, speechSeconds: 41.5, videosMade: 0, videosFailed: 0 },
        },
      },
    },
  },
  {
    method: 'get',
    path: '/api/analytics/sessions',
    summary: 'The caller’s chat sessions with their message counts',
    description: 'Newest first.',
    tag: 'Developer',
    auth: true,
    query: AnalyticsSessionsQuery,
    response: AnalyticsSessionsResponse,
  },
  {
    method: 'get',
    path: '/api/analytics/usage',
    summary: 'The caller’s API calls per day, endpoint, status and key',
    description: 'Over the last `days` (1–90); `keyId` keeps the calls of one of the caller’s keys.',
    tag: 'Developer',
    auth: true,
    query: UsageQuery,
    response: UsageResponse,
    errors: [404],
    errorNotes: { 404: 'keyId is not one of the caller’s keys' },
    example: {
      response: {
        data: {
          from: '2026-03-13T00:00:00.000Z',
          to: '2026-03-14T23:59:59.999Z',
          totalCalls: 42,
          days: [
            { date: '2026-03-13', calls: 30, errors: 1 },
            { date: '2026-03-14', calls: 12, errors: 0 },
          ],
          byEndpoint: [
            { endpoint: 'POST chatV1', calls: 35 },
            { endpoint: 'GET chat', calls: 7 },
          ],
          byStatus: [
            { status: 200, calls: 41 },
            { status: 429, calls: 1 },
          ],
          byKey: [{ keyId: EXAMPLE.keyId, calls: 42 }],
        },
      },
    },
  },
];

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

/** Every operation the document describes, in the order it lists them. */
export const documentedOperations: readonly Operation[] = [
  ...operations,
  ...chatOperations,
  ...responsesOperations,
  ...audioOperations,
  ...teamOperations,
  ...videoOperations,
  ...webhookOperations,
  ...adminOperations,
  ...adminHealthOperations,
];

type ResponseConfig = {
  description: string;
  content?: Record<string, { schema: ZodType; example?: unknown }>;
  headers?: Record<string, { $ref: string }>;
};

/** Builds the OpenAPI 3.1 document served at GET /api/openapi.json. */
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
  registry.register('Error', ErrorBody.openapi({ example: ERROR_EXAMPLE }));
  registry.register(
    'OpenAIErrorBody',
    OpenAIErrorBody.openapi({ example: { ...ERROR_EXAMPLE, error: openAIErrorOf(404, ERROR_EXAMPLE) } }),
  );
  const idempotencyKey = registry.registerParameter('IdempotencyKey', IdempotencyKeyHeader);
  const replayed = registry.registerComponent('headers', 'IdempotentReplayed', {
    description: '`true` when the answer is the recorded answer of an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  });

  for (const op of documentedOperations) {
    const idempotent = acceptsIdempotencyKey(op);
    const access = gatewayAccessOf(op);
    const { summary, whole } = shortSummary(op.summary);
    const responses: Record<string, ResponseConfig> = {};
    if (op.document) {
      responses['200'] = {
        description: op.responseDescription ?? summary,
        content: { [op.document.contentType]: { schema: z.string().meta({ format: 'binary' }) } },
      };
    } else if (op.response) {
      const defaultStatus = op.method === 'post' && !op.path.includes('/login') ? 201 : 200;
      for (const status of [op.successStatus ?? defaultStatus].flat()) {
        responses[String(status)] = {
          description: op.responseDescription ?? summary,
          content: {
            'application/json': {
              schema: op.response,
              ...(op.example?.response !== undefined ? { example: op.example.response } : {}),
            },
          },
        };
      }
    } else {
      // Without a JSON body: a redirect, unless the operation says otherwise (204 No Content).
      for (const status of [op.successStatus ?? 302].flat()) {
        responses[String(status)] = { description: op.responseDescription ?? summary };
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
    const errorSchema = isOpenAIPath(op.path) ? OpenAIErrorBody : ErrorBody;
    for (const status of failureStatusesOf(op)) {
      responses[String(status)] = {
        description: failureDescriptionOf(op, status),
        content: { 'application/json': { schema: errorSchema } },
      };
    }
    registry.registerPath({
      method: op.method,
      path: op.path,
      operationId: operationIdOf(op.method, op.path),
      summary,
      description: [whole, op.description, accessNoteOf(access)].filter(Boolean).join('\n\n'),
      tags: [op.tag],
      security: op.auth ? [{ [bearer.name]: [] }] : [],
      request: {
        ...(op.params ? { params: z.object(op.params) } : {}),
        ...(op.query ? { query: op.query } : {}),
        ...(idempotent ? { headers: [idempotencyKey] } : {}),
        ...(op.body
          ? {
              body: {
                content: {
                  [op.bodyContentType ?? 'application/json']: {
                    schema: op.body,
                    ...(op.example?.request !== undefined ? { example: op.example.request } : {}),
                  },
                },
                required: !op.bodyOptional,
              },
            }
          : {}),
      },
      responses,
    });
  }

  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Kasa API',
      version: '1.0.0',
      description:
        'Voice-first, multilingual AI assistants: auth, chat, voice and developer APIs. Authenticated POSTs take an ' +
        'Idempotency-Key header: a retry with the same key gets the first answer (Idempotent-Replayed: true) ' +
        'instead of creating a second session, message, key, checkout or job. Errors have one JSON shape: ' +
        '`{ message, code, details?, requestId }` (on /v1/* with OpenAI’s `error` object beside it).',
      contact: { name: 'Kasa developer support', url: 'https://kasa.example/developer', email: 'support@kasa.example' },
      // The description and the clients generated from it are under the SDKs' license.
      license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
    },
    servers: [
      {
        url: serverUrl,
        description: serverUrl === '/' ? 'The Kasa server that serves this document' : 'Kasa',
      },
    ],
  });
  // Tags declared (each with its description, in alphabetical order) and parameters described for every operation,
  // webhooks included, whichever list it comes from.
  const used = new Set<string>();
  for (const [path, item] of Object.entries({ ...document.paths, ...document.webhooks })) {
    for (const operation of Object.values(item as Record<string, unknown>)) {
      if (!operation || typeof operation !== 'object') continue;
      const { tags, parameters } = operation as { tags?: string[]; parameters?: ParameterObject[] };
      tags?.forEach((tag) => used.add(tag));
      describeParameters(path, parameters);
    }
  }
  portablePatterns(document.paths);
  portablePatterns(document.webhooks);
  portablePatterns(document.components);
  document.tags = [...used]
    .sort((a, b) => a.localeCompare(b, 'en'))
    .map((name) => ({ name, description: API_TAGS[name] ?? `The ${name} operations` }));
  return document;
}
