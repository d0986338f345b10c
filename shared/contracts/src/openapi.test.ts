import { createConfig, lintFromString } from '@redocly/openapi-core';
import { buildOpenApiDocument, operationIdOf } from './openapi';

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument();
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, { security?: unknown[]; responses: Record<string, unknown> }>).map(
      ([method, op]) => ({ path, method, op }),
    ),
  );

  it('describes every call of spec section 7', () => {
    const keys = operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'POST /api/auth/login',
        'POST /api/auth/register',
        'GET /api/auth/me',
        'GET /api/developer/services/status',
        'GET /api/developer/analytics',
        'POST /api/chat/sessions',
        'POST /api/chat/sessions/{sessionId}/messages',
        'GET /api/personas',
        'POST /api/voice/synthesize',
      ]),
    );
  });

  it('describes the chat service’s sessions, streams and OpenAI-compatible calls', () => {
    const keys = operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'GET /api/chat/sessions',
        'GET /api/chat/sessions/{sessionId}',
        'PATCH /api/chat/sessions/{sessionId}',
        'DELETE /api/chat/sessions/{sessionId}',
        'GET /api/chat/search',
        'POST /api/chat/sessions/{sessionId}/messages/{messageId}/stop',
        'GET /api/chat/sessions/{sessionId}/messages/{messageId}/stream',
        'POST /api/chat/sessions/{sessionId}/messages/{messageId}/edit',
        'POST /api/chat/sessions/{sessionId}/messages/{messageId}/regenerate',
        'POST /api/chat/sessions/{sessionId}/messages/{messageId}/select',
        'GET /v1/models',
        'POST /v1/chat/completions',
      ]),
    );
  });

  it('describes editing and regenerating as streamed replies, with a body required for an edit only', () => {
    const find = (path: string) =>
      operations.find((o) => o.path === path && o.method === 'post')?.op as
        | { requestBody?: { required?: boolean }; responses: Record<string, { content?: Record<string, unknown> }> }
        | undefined;
    const messages = '/api/chat/sessions/{sessionId}/messages/{messageId}';
    for (const action of ['edit', 'regenerate']) {
      const op = find(`${messages}/${action}`);
      expect(Object.keys(op?.responses['201']?.content ?? {})).toEqual(['application/json']);
      expect(Object.keys(op?.responses['200']?.content ?? {})).toEqual(['text/event-stream']);
      expect(Object.keys(op?.responses ?? {})).toEqual(expect.arrayContaining(['400', '403', '404', '429']));
    }
    expect(find(`${messages}/edit`)?.requestBody?.required).toBe(true);
    expect(find(`${messages}/regenerate`)?.requestBody?.required).toBe(false);
    expect(Object.keys(find(`${messages}/select`)?.responses ?? {})).toEqual(expect.arrayContaining(['200', '404']));
  });

  it('describes video generation: a 202 job, its status, the list, and the public file', () => {
    const find = (path: string, method: string) => operations.find((o) => o.path === path && o.method === method)?.op;
    expect(Object.keys(find('/api/video/generations', 'post')?.responses ?? {})).toEqual(
      expect.arrayContaining(['202', '400', '401', '403', '429']),
    );
    expect(find('/api/video/generations', 'get')).toBeDefined();
    expect(find('/api/video/generations/{id}', 'get')?.responses['404']).toBeDefined();
    const file = find('/api/video/files/{id}', 'get');
    expect(file?.security).toEqual([]);
    expect(Object.keys(file?.responses ?? {})).toEqual(expect.arrayContaining(['200', '206', '404', '416']));
  });

  it('gives every operation a success answer and the shared error shape, and names path parameters', () => {
    for (const { path, method, op } of operations) {
      const statuses = Object.keys(op.responses);
      expect({ path, method, success: statuses.some((s) => s.startsWith('2') || s.startsWith('3')) }).toEqual({
        path,
        method,
        success: true,
      });
      expect(op.responses['400']).toBeDefined();
      const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = ((op as { parameters?: Array<{ in: string; name: string }> }).parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => p.name);
      expect({ path, method, params: declared.sort() }).toEqual({ path, method, params: pathParams.sort() });
    }
  });

  it('documents the Idempotency-Key header on every authenticated POST, with its 409, 422 and replay header', () => {
    const find = (path: string, method: string) =>
      operations.find((o) => o.path === path && o.method === method)?.op as
        | {
            parameters?: Array<{ $ref?: string }>;
            responses: Record<string, { headers?: Record<string, unknown>; description?: string }>;
          }
        | undefined;
    const ref = { $ref: '#/components/parameters/IdempotencyKey' };
    for (const path of [
      '/api/chat/sessions',
      '/api/chat/sessions/{sessionId}/messages',
      '/api/chat/sessions/{sessionId}/messages/{messageId}/edit',
      '/api/chat/sessions/{sessionId}/messages/{messageId}/regenerate',
      '/api/chat/sessions/{sessionId}/messages/{messageId}/select',
      '/api/personas',
      '/api/developer/keys',
      '/api/billing/checkout',
      '/api/video/generations',
      '/api/developer/team/invitations',
      '/v1/chat/completions',
    ]) {
      const op = find(path, 'post');
      expect({ path, parameters: op?.parameters }).toEqual({ path, parameters: expect.arrayContaining([ref]) });
      expect(op?.responses['422']?.description).toContain('idempotency_key_reused');
      expect(op?.responses['409']?.description).toContain('idempotency_in_progress');
      const success = Object.entries(op?.responses ?? {}).filter(([status]) => status.startsWith('2'));
      for (const [, response] of success) expect(response.headers).toHaveProperty('Idempotent-Replayed');
    }
    for (const [path, method] of [
      ['/api/auth/login', 'post'],
      ['/api/auth/register', 'post'],
      ['/api/chat/sessions', 'get'],
    ] as const)
      expect(find(path, method)?.parameters ?? []).not.toContainEqual(ref);
    const parameter = (document.components?.parameters as Record<string, { name: string; in: string }>).IdempotencyKey;
    expect(parameter).toMatchObject({ name: 'Idempotency-Key', in: 'header' });
  });

  it('says what a 422 means on an upload: a file past a processing limit, or a reused Idempotency-Key', () => {
    const upload = operations.find((o) => o.path === '/api/chat/attachments' && o.method === 'post')?.op as {
      responses: Record<string, { description?: string }>;
    };
    expect(upload.responses['422']?.description).toMatch(/^file_too_complex: .*; or idempotency_key_reused: /);
    expect(upload.responses['503']).toBeDefined();
  });

  it('marks protected operations with bearer auth and public ones without', () => {
    const security = (path: string, method: string) =>
      operations.find((o) => o.path === path && o.method === method)?.op.security;
    expect(security('/api/chat/sessions', 'get')).toEqual([{ bearerAuth: [] }]);
    expect(security('/api/auth/login', 'post')).toEqual([]);
  });
});

describe('the OpenAPI document, linted', () => {
  // Redocly's recommended rules for OpenAPI 3.1, with two decisions of ours:
  // - no `info.license`: the document describes a hosted API, not a licensed artifact (the SDKs carry theirs);
  // - GET /api/auth/logout answers a browser navigation with a 302 to the landing page (ADR 0002): no 2XX.
  const ALLOWED = new Set(['operation-2xx-response #/paths/~1api~1auth~1logout/get/responses']);

  it('passes the linter with nothing but the allowed findings', async () => {
    const config = await createConfig({ extends: ['recommended'], rules: { 'info-license': 'off' } });
    const problems = await lintFromString({
      source: JSON.stringify(buildOpenApiDocument()),
      absoluteRef: 'openapi.json',
      config,
    });
    const findings = problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}`);
    expect(findings.filter((finding) => !ALLOWED.has(finding))).toEqual([]);
  });

  it('names every operation with a unique operationId', () => {
    const document = buildOpenApiDocument();
    const ids = Object.values(document.paths ?? {}).flatMap((item) =>
      Object.values(item as Record<string, { operationId?: string }>).map((op) => op.operationId),
    );
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operationIdOf('get', '/api/chat/sessions/{sessionId}')).toBe('getChatSessionsBySessionId');
  });
});
