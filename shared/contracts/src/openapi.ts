import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { ZodType } from 'zod';
import { AuthResponse, LoginRequest, MeResponse, RegisterRequest } from './auth';
import { CreateMessageRequest, CreateSessionRequest, Message, Persona, Session } from './chat';
import { ErrorBody } from './common';
import { ThemePreferenceResponse, ThemeSettings } from './preferences';
import { AnalyticsResponse, ServicesStatusResponse } from './status';
import { SynthesizeRequest, SynthesizeResponse } from './voice';
import { z } from './zod';

interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  summary: string;
  tag: string;
  auth: boolean;
  body?: ZodType;
  response?: ZodType;
  responseDescription?: string;
  /** Status codes beyond 200/400/401/500 that the operation answers with. */
  errors?: number[];
  params?: Record<string, ZodType>;
}

const errorDescriptions: Record<number, string> = {
  400: 'The request is malformed or fails validation',
  401: 'The bearer token is missing, invalid, expired or revoked',
  403: 'The plan does not include this feature',
  404: 'Not found, or not yours',
  409: 'Conflicts with an existing resource',
  413: 'The body is too large',
  429: 'Too many requests',
  503: 'A service behind the gateway is unavailable',
};

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
  { method: 'get', path: '/api/auth/me', summary: 'The signed-in user', tag: 'Auth', auth: true, response: MeResponse },
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
    path: '/api/auth/logout',
    summary: 'Revoke the token and redirect the browser to /',
    tag: 'Auth',
    auth: false,
    responseDescription: 'Redirect to /',
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
    errors: [403, 404],
    params: { sessionId: z.string() },
  },
  {
    method: 'post',
    path: '/api/voice/synthesize',
    summary: 'Turn text into speech',
    tag: 'Voice',
    auth: true,
    body: SynthesizeRequest,
    response: SynthesizeResponse,
    errors: [403],
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
];

/** Builds the OpenAPI 3.1 document served at GET /api/openapi.json. */
export function buildOpenApiDocument(serverUrl = '/') {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'A token from /api/auth/login or /api/auth/register, or an API key',
  });
  registry.register('Error', ErrorBody);

  for (const op of operations) {
    const failures = [400, ...(op.auth ? [401] : []), ...(op.errors ?? []), 503];
    const responses: Record<string, { description: string; content?: Record<string, { schema: ZodType }> }> = {};
    if (op.response) {
      responses[op.method === 'post' && !op.path.includes('/login') ? '201' : '200'] = {
        description: op.summary,
        content: { 'application/json': { schema: op.response } },
      };
    } else {
      responses['302'] = { description: op.responseDescription ?? op.summary };
    }
    for (const status of failures) {
      responses[String(status)] = {
        description: errorDescriptions[status] ?? 'Error',
        content: { 'application/json': { schema: ErrorBody } },
      };
    }
    registry.registerPath({
      method: op.method,
      path: op.path,
      summary: op.summary,
      tags: [op.tag],
      security: op.auth ? [{ [bearer.name]: [] }] : [],
      request: {
        ...(op.params ? { params: z.object(op.params) } : {}),
        ...(op.body ? { body: { content: { 'application/json': { schema: op.body } }, required: true } } : {}),
      },
      responses,
    });
  }

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Kasa API',
      version: '1.0.0',
      description: 'Voice-first, multilingual AI assistants: auth, chat, voice and developer APIs.',
    },
    servers: [{ url: serverUrl }],
  });
}
