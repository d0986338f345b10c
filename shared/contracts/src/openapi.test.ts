import { buildOpenApiDocument } from './openapi';

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
        'GET /v1/models',
        'POST /v1/chat/completions',
      ]),
    );
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

  it('marks protected operations with bearer auth and public ones without', () => {
    const security = (path: string, method: string) =>
      operations.find((o) => o.path === path && o.method === method)?.op.security;
    expect(security('/api/chat/sessions', 'get')).toEqual([{ bearerAuth: [] }]);
    expect(security('/api/auth/login', 'post')).toEqual([]);
  });
});
