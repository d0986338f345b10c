import { translatorFor } from '../i18n/testing';
import { describeTestFailure, formatBody, sendTestRequest } from './sendTestRequest';

describe('formatBody', () => {
  it('indents JSON and leaves anything else as it came', () => {
    expect(formatBody('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(formatBody('not json')).toBe('not json');
    expect(formatBody('  ')).toBe('');
  });
});

describe('describeTestFailure', () => {
  it("reads 'Error: <message>', or 'Unknown error' without one", () => {
    const t = translatorFor();
    expect(describeTestFailure(t, new TypeError('Failed to fetch'))).toBe('Error: Failed to fetch');
    expect(describeTestFailure(t, 'boom')).toBe('Unknown error');
    expect(describeTestFailure(t, new Error(''))).toBe('Unknown error');
  });
});

describe('sendTestRequest', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  function capture(response: Response) {
    const calls: Array<[string, RequestInit]> = [];
    globalThis.fetch = (async (url: string, init: RequestInit) => {
      calls.push([url, init]);
      return response;
    }) as typeof fetch;
    return calls;
  }

  it('sends the key as a bearer token and the body exactly as typed, without cookies', async () => {
    const calls = capture(new Response('{"ok":true}', { status: 201, headers: { 'x-request-id': 'r1' } }));
    const times = [100, 142];
    const result = await sendTestRequest(
      { method: 'POST', url: '/api/chat/sessions', apiKey: ' ksk_abc ', body: '{not json' },
      () => times.shift()!,
    );
    const [url, init] = calls[0]!;
    expect(url).toBe('/api/chat/sessions');
    expect(init).toMatchObject({ method: 'POST', body: '{not json', credentials: 'omit' });
    expect(init.headers).toMatchObject({ Authorization: 'Bearer ksk_abc', 'Content-Type': 'application/json' });
    expect(result).toMatchObject({ status: 201, timeMs: 42, body: '{\n  "ok": true\n}' });
    expect(result.headers).toContainEqual(['x-request-id', 'r1']);
  });

  it('sends no body for GET and no Authorization without a key', async () => {
    const calls = capture(new Response('', { status: 401 }));
    const result = await sendTestRequest({ method: 'GET', url: '/api/personas', apiKey: '', body: '{"x":1}' });
    const [, init] = calls[0]!;
    expect(init.body).toBeUndefined();
    expect(init.headers).not.toHaveProperty('Authorization');
    expect(result.status).toBe(401);
  });
});
