import { createConfig, lintFromString } from '@redocly/openapi-core';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { ZodType } from 'zod';
import {
  API_TAGS,
  MAX_SUMMARY_LENGTH,
  buildOpenApiDocument,
  documentedOperations,
  gatewayAccessOf,
  operationIdOf,
  shortSummary,
} from './openapi';

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
  // Redocly's recommended rules for OpenAPI 3.1, with one decision of ours: GET /api/auth/logout answers a browser
  // navigation with a 302 to the landing page (ADR 0002): no 2XX.
  const ALLOWED = new Set(['operation-2xx-response #/paths/~1api~1auth~1logout/get/responses']);

  it('passes the linter with nothing but the allowed findings', async () => {
    const config = await createConfig({ extends: ['recommended'] });
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

describe('the OpenAPI document, for people and code generators', () => {
  const document = buildOpenApiDocument();
  type DocumentedOperation = {
    summary?: string;
    description?: string;
    tags?: string[];
    parameters?: Array<{ $ref?: string; in?: string; name?: string; description?: string }>;
    requestBody?: { content: Record<string, { example?: unknown }> };
    responses: Record<string, { description: string; content?: Record<string, { schema?: { $ref?: string } }> }>;
  };
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, DocumentedOperation>).map(([method, op]) => ({ path, method, op })),
  );
  const find = (path: string, method: string) => operations.find((o) => o.path === path && o.method === method)?.op;

  it('gives every operation a short summary and a description', () => {
    const problems = operations.flatMap(({ path, method, op }) => {
      const where = `${method.toUpperCase()} ${path}`;
      return [
        ...(op.summary && op.summary.length <= MAX_SUMMARY_LENGTH
          ? []
          : [`${where}: summary of ${op.summary?.length}`]),
        ...(op.summary?.endsWith('.') ? [`${where}: summary ends with a period`] : []),
        ...(op.description?.trim() ? [] : [`${where}: no description`]),
      ];
    });
    expect(problems).toEqual([]);
  });

  it('cuts a long summary at a clause and gives the whole sentence to the description', () => {
    const long =
      'Follow one of the caller’s video jobs as Server-Sent Events: the job at once and on every change, done last.';
    expect(shortSummary(long)).toEqual({
      summary: 'Follow one of the caller’s video jobs as Server-Sent Events',
      whole: long,
    });
    expect(shortSummary('Create an account.')).toEqual({ summary: 'Create an account' });
    const unbroken = `Make ${'very '.repeat(30)}long words`;
    expect(shortSummary(unbroken).summary.length).toBeLessThanOrEqual(MAX_SUMMARY_LENGTH);
    expect(shortSummary(unbroken).summary.endsWith('…')).toBe(true);
  });

  it('says in every description who may call the operation', () => {
    expect(find('/api/personas', 'get')?.description).toContain('an API key with the `chat` scope');
    expect(find('/api/analytics/usage', 'get')?.description).toContain('do not count towards the monthly quota');
    expect(find('/api/developer/keys', 'post')?.description).toContain('API keys are not accepted here');
    expect(find('/api/admin/people', 'get')?.description).toContain('answers 404');
    expect(find('/api/languages', 'get')?.description).toContain('No credential needed');
  });

  it('declares every tag it uses, with a description, in alphabetical order', () => {
    const used = [...new Set(operations.flatMap(({ op }) => op.tags ?? []))].sort();
    const declared = (document.tags ?? []).map((tag) => tag.name);
    expect(declared).toEqual(used);
    expect([...declared].sort((a, b) => a.localeCompare(b, 'en'))).toEqual(declared);
    // A new area gets its description in API_TAGS (openapi.ts).
    expect(used.filter((tag) => !API_TAGS[tag])).toEqual([]);
    for (const tag of document.tags ?? []) expect(tag.description).toBe(API_TAGS[tag.name]);
  });

  it('names a contact, a license and the server', () => {
    expect(document.info.contact).toEqual({
      name: expect.any(String),
      url: expect.stringMatching(/^https:\/\//),
      email: expect.stringContaining('@'),
    });
    expect(document.info.license).toEqual({ name: 'MIT', url: expect.stringMatching(/^https:\/\//) });
    expect(buildOpenApiDocument('https://kasa.example').servers).toEqual([
      { url: 'https://kasa.example', description: expect.any(String) },
    ]);
  });

  it('describes every parameter', () => {
    const undescribed = operations.flatMap(({ path, method, op }) =>
      (op.parameters ?? [])
        .filter((parameter) => !parameter.$ref && !parameter.description)
        .map((parameter) => `${method.toUpperCase()} ${path} ${parameter.in} ${parameter.name}`),
    );
    expect(undescribed).toEqual([]);
  });

  it('writes patterns without RegExp flags, and control characters as ranges', () => {
    const patterns = JSON.stringify(document).match(/"pattern":"(?:[^"\\]|\\.)*"/g) ?? [];
    expect(patterns.length).toBeGreaterThan(10);
    expect(patterns.filter((pattern) => /\/[a-z]+"$/.test(pattern) || pattern.includes('p{Cc}'))).toEqual([]);
    const name = (document.components?.schemas?.CreateApiKeyRequest as { properties: Record<string, object> })
      .properties.name as { pattern: string };
    expect(new RegExp(name.pattern).test('Backend')).toBe(true);
    expect(new RegExp(name.pattern).test('Back\u0007end')).toBe(false);
  });

  it('gives examples that the operation’s own schemas accept', () => {
    const examples = documentedOperations.flatMap((op) => [
      ...(op.example?.request !== undefined ? [{ op, schema: op.body, value: op.example.request, of: 'request' }] : []),
      ...(op.example?.response !== undefined
        ? [{ op, schema: op.response, value: op.example.response, of: 'response' }]
        : []),
    ]);
    expect(examples.length).toBeGreaterThan(20);
    const rejected = examples.flatMap(({ op, schema, value, of }) => {
      const result = (schema as ZodType | undefined)?.safeParse(value);
      return result?.success
        ? []
        : [`${op.method.toUpperCase()} ${op.path} ${of}: ${result?.error.message ?? 'no schema'}`];
    });
    expect(rejected).toEqual([]);
    for (const path of ['/v1/chat/completions', '/v1/embeddings', '/api/chat/sessions/{sessionId}/messages'])
      expect(find(path, 'post')?.requestBody?.content['application/json']?.example).toBeDefined();
  });

  it('answers errors on /v1 in the shape OpenAI’s clients read, and Kasa’s elsewhere', () => {
    const errorRef = (path: string, method: string, status: string) =>
      find(path, method)?.responses[status]?.content?.['application/json']?.schema?.$ref;
    expect(errorRef('/v1/chat/completions', 'post', '400')).toBe('#/components/schemas/OpenAIErrorBody');
    expect(errorRef('/v1/models', 'get', '401')).toBe('#/components/schemas/OpenAIErrorBody');
    expect(errorRef('/api/chat/sessions', 'post', '400')).toBe('#/components/schemas/Error');
  });
});

/**
 * The failures the gateway adds, against its configuration: 429 where a pipeline has kasa-rate-limit or kasa-quota,
 * 403 where kasa-jwt takes API keys of a scope, 404 instead of 401 where it hides a route.
 */
describe('the OpenAPI document’s failures, against the gateway’s pipelines', () => {
  interface Pipeline {
    apiEndpoints: string[];
    policies: Array<Record<string, Array<{ action?: Record<string, unknown> }> | null>>;
  }
  const config = parse(readFileSync(path.join(__dirname, '../../../gateway/config/gateway.config.yml'), 'utf8')) as {
    apiEndpoints: Record<string, { paths: string | string[]; methods?: string[] }>;
    pipelines: Record<string, Pipeline>;
  };
  const matches = (pattern: string, concrete: string) =>
    pattern === '*' || (pattern.endsWith('/*') ? concrete.startsWith(pattern.slice(0, -1)) : pattern === concrete);
  /** The pipeline that serves a call: its endpoint is the first whose paths and methods match. */
  function pipelineOf(method: string, documented: string): Pipeline | undefined {
    const concrete = documented.replace(/\{[^}]+\}/g, 'x');
    const endpoint = Object.entries(config.apiEndpoints).find(
      ([, e]) => (!e.methods || e.methods.includes(method)) && [e.paths].flat().some((p) => matches(p, concrete)),
    )?.[0];
    return Object.values(config.pipelines).find((pipeline) => endpoint && pipeline.apiEndpoints.includes(endpoint));
  }
  const policy = (pipeline: Pipeline, name: string) => pipeline.policies.find((p) => name in p)?.[name];
  const document = buildOpenApiDocument();
  const statusesOf = (op: { method: string; path: string }) =>
    Object.keys(
      (document.paths?.[op.path] as Record<string, { responses: Record<string, unknown> }>)[op.method]!.responses,
    );

  it('finds the pipeline of every documented operation', () => {
    const unrouted = documentedOperations.filter((op) => !pipelineOf(op.method.toUpperCase(), op.path));
    expect(unrouted.map((op) => `${op.method} ${op.path}`)).toEqual([]);
  });

  it('documents 429 wherever the gateway counts calls, and elsewhere only where the operation says so', () => {
    const wrong = documentedOperations.flatMap((op) => {
      const pipeline = pipelineOf(op.method.toUpperCase(), op.path)!;
      const counted = Boolean(policy(pipeline, 'kasa-rate-limit') ?? policy(pipeline, 'kasa-quota'));
      const documented = statusesOf(op).includes('429');
      const expected = counted || Boolean(op.errors?.includes(429));
      return documented === expected ? [] : [`${op.method} ${op.path}: 429 ${documented ? 'documented' : 'missing'}`];
    });
    expect(wrong).toEqual([]);
  });

  it('documents 403 where an API key needs a scope, with that scope, and hides operators’ routes behind 404', () => {
    const wrong = documentedOperations.flatMap((op) => {
      const jwt = policy(pipelineOf(op.method.toUpperCase(), op.path)!, 'kasa-jwt');
      const actions = (jwt ?? []).map((step) => step.action ?? {});
      const scope = actions.find((action) => action.apiKeyScope)?.apiKeyScope;
      const hidden = actions.some((action) => action.hidden);
      const access = gatewayAccessOf(op);
      const problems: string[] = [];
      if ((access.kind === 'api' ? access.scope : undefined) !== scope) problems.push(`scope ${String(scope)}`);
      if (hidden !== (access.kind === 'operator')) problems.push('hidden');
      if (scope && !statusesOf(op).includes('403')) problems.push('403 missing');
      if (hidden && (statusesOf(op).includes('401') || !statusesOf(op).includes('404'))) problems.push('401/404');
      return problems.map((problem) => `${op.method} ${op.path}: ${problem}`);
    });
    expect(wrong).toEqual([]);
  });

  it('documents 404 wherever the path names something', () => {
    const missing = documentedOperations.filter((op) => op.path.includes('{') && !statusesOf(op).includes('404'));
    expect(missing.map((op) => `${op.method} ${op.path}`)).toEqual([]);
  });
});
