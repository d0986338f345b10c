import { buildOpenApiDocument } from '@kasa/contracts';
import {
  describeType,
  exampleValue,
  fillPath,
  groupByTag,
  listOperations,
  pathParamNames,
  type OpenApiDocument,
} from './operations';

// The document the gateway serves, built from the contracts exactly as GET /api/openapi.json builds it.
const doc = JSON.parse(JSON.stringify(buildOpenApiDocument('/'))) as OpenApiDocument;
const operations = listOperations(doc);
const byId = (id: string) => operations.find((op) => op.id === id)!;

describe('listOperations', () => {
  it('lists every operation of the document once', () => {
    const expected = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.map((op) => op.id)).toEqual(expected);
    expect(new Set(operations.map((op) => op.id)).size).toBe(operations.length);
  });

  it('gives each operation its short summary and its description', () => {
    const op = byId('GET /api/chat/sessions');
    expect(op.summary).toBe('My chat sessions, newest first');
    expect(op.description).toContain('nextCursor');
    expect(op.description).toContain('`chat` scope');
  });

  it('says which operations need a bearer credential', () => {
    expect(byId('GET /api/personas').auth).toBe(true);
    expect(byId('GET /api/languages').auth).toBe(false);
    expect(byId('POST /api/auth/login').auth).toBe(false);
  });

  it('describes request body fields through $refs, with their limits', () => {
    const body = byId('POST /api/developer/keys').body!;
    expect(body.required).toBe(true);
    expect(body.fields).toEqual([
      expect.objectContaining({ name: 'name', type: 'string', required: true, constraints: '1–60 characters' }),
      expect.objectContaining({
        name: 'expiresInDays',
        type: 'integer or null',
        required: false,
        constraints: '1–365',
      }),
      expect.objectContaining({ name: 'scopes', type: 'array of string', required: false, constraints: '1–3 items' }),
      expect.objectContaining({ name: 'team', type: 'boolean', required: false }),
    ]);
  });

  it('lists path and query parameters and every response', () => {
    const op = byId('GET /api/chat/sessions/{sessionId}');
    expect(op.pathParams.map((p) => p.name)).toEqual(['sessionId']);
    expect(op.queryParams.map((p) => p.name)).toEqual(['limit', 'cursor']);
    expect(op.responses.map((r) => r.status)).toEqual(expect.arrayContaining(['200', '401', '404']));
    expect(byId('GET /api/personas').body).toBeNull();
  });

  it('lists the Idempotency-Key header, which the document shares by reference, on the calls that take it', () => {
    const header = byId('POST /api/chat/sessions').headerParams;
    expect(header).toEqual([
      expect.objectContaining({
        name: 'Idempotency-Key',
        type: 'string',
        required: false,
        constraints: '1–255 characters',
        description: expect.stringContaining('safe to retry'),
      }),
    ]);
    expect(byId('GET /api/personas').headerParams).toEqual([]);
  });

  it('groups by tag in the order tags first appear', () => {
    const groups = groupByTag(operations);
    expect(groups[0]![0]).toBe('Auth');
    expect(groups.flatMap(([, ops]) => ops)).toHaveLength(operations.length);
  });
});

describe('describeType', () => {
  it('names referenced objects and unwraps referenced enums', () => {
    expect(describeType(doc, { type: 'array', items: { $ref: '#/components/schemas/Persona' } })).toBe(
      'array of Persona',
    );
    expect(describeType(doc, { $ref: '#/components/schemas/SubscriptionTier' })).toBe('string');
    expect(describeType(doc, { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'object' } }] })).toBe(
      'string or array of object',
    );
  });
});

describe('exampleValue', () => {
  it('builds a body of the required fields with plausible values', () => {
    expect(exampleValue(doc, byId('POST /api/developer/keys').body!.schema)).toEqual({ name: 'string' });
    const completion = exampleValue(doc, byId('POST /v1/chat/completions').body!.schema) as Record<string, unknown>;
    expect(Object.keys(completion)).toEqual(['model', 'messages']);
    // Only `role` is required of a message since tool calls came (an assistant message may carry tool_calls instead).
    expect(completion.messages).toEqual([{ role: 'system' }]);
  });
});

describe('path parameters', () => {
  it('finds and fills the placeholders, percent-encoded', () => {
    const path = '/api/chat/sessions/{sessionId}/messages/{messageId}/stop';
    expect(pathParamNames(path)).toEqual(['sessionId', 'messageId']);
    expect(fillPath(path, { sessionId: 'a b', messageId: '../x' })).toBe(
      '/api/chat/sessions/a%20b/messages/..%2Fx/stop',
    );
    expect(fillPath(path, { sessionId: ' ' })).toBe(path);
  });
});
