import { call, startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const lastVoiceRequest = () => h.services.voice.last();

describe('voice routes', () => {
  it('passes POST /api/voice/synthesize without a token on anonymously, so the public samples can be read', async () => {
    const res = await call(`${h.url}/api/voice/synthesize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-kasa-tier': 'enterprise', 'x-kasa-user-id': 'forged' },
      body: '{"text":"Hello, I am Kasa."}',
    });
    expect(res.status).toBe(200);
    const seen = lastVoiceRequest();
    expect(seen.url).toBe('/api/voice/synthesize');
    // Identity only ever comes from a verified token: forged headers are dropped.
    expect(seen.headers['x-kasa-user-id']).toBeUndefined();
    expect(seen.headers['x-kasa-tier']).toBeUndefined();
  });

  it('verifies a token sent to /api/voice/synthesize and forwards the caller’s plan', async () => {
    const res = await call(`${h.url}/api/voice/synthesize`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.keys.token({ tier: 'pro' })}`, 'content-type': 'application/json' },
      body: '{"text":"Read this"}',
    });
    expect(res.status).toBe(200);
    expect(lastVoiceRequest().headers['x-kasa-tier']).toBe('pro');
    expect(lastVoiceRequest().headers['x-kasa-user-id']).toEqual(expect.any(String));
  });

  it('rejects a bad token on /api/voice/synthesize instead of treating the caller as anonymous', async () => {
    const before = h.services.voice.seen.length;
    const res = await call(`${h.url}/api/voice/synthesize`, {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-token', 'content-type': 'application/json' },
      body: '{"text":"Read this"}',
    });
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthenticated' });
    expect(h.services.voice.seen.length).toBe(before);
  });

  it.each(['/api/voice/status', '/api/voice/samples', '/api/voice/voices?language=sw', '/api/voice/audio/abc'])(
    'serves GET %s without a token',
    async (path) => {
      const res = await call(h.url + path);
      expect(res.status).toBe(200);
      expect(lastVoiceRequest().url).toBe(path);
    },
  );

  it('serves finished videos without a token, and keeps the video jobs behind one', async () => {
    const file = await call(`${h.url}/api/video/files/abc`, { headers: { range: 'bytes=0-9' } });
    expect(file.status).toBe(200);
    expect(lastVoiceRequest().url).toBe('/api/video/files/abc');
    expect(lastVoiceRequest().headers.range).toBe('bytes=0-9');
    const before = h.services.voice.seen.length;
    for (const [method, path] of [
      ['POST', '/api/video/files/abc'],
      ['GET', '/api/video/generations'],
      ['POST', '/api/video/generations'],
    ] as const) {
      expect((await call(h.url + path, { method })).status).toBe(401);
    }
    expect(h.services.voice.seen.length).toBe(before);
  });

  it('keeps the rest of /api/voice/* behind a token', async () => {
    for (const [method, path] of [
      ['POST', '/api/voice/samples'],
      ['GET', '/api/voice/other'],
    ] as const) {
      const res = await call(h.url + path, { method });
      expect(res.status).toBe(401);
    }
  });
});

describe('voice request bodies', () => {
  const MB = 1024 * 1024;
  const pro = () => ({ authorization: `Bearer ${h.keys.token({ tier: 'pro' })}` });

  it('passes a recording of megabytes on to the transcription route', async () => {
    const res = await call(`${h.url}/api/voice/transcribe`, {
      method: 'POST',
      headers: { ...pro(), 'content-type': 'audio/wav' },
      body: Buffer.alloc(3 * MB, 1),
    });
    expect(res.status).toBe(200);
    expect(lastVoiceRequest().url).toBe('/api/voice/transcribe');
    expect(lastVoiceRequest().body.length).toBe(3 * MB);
  });

  it('refuses a recording over 10 MB plus the form around it, before asking the voice service', async () => {
    const before = h.services.voice.seen.length;
    const res = await call(`${h.url}/api/voice/transcribe`, {
      method: 'POST',
      headers: { ...pro(), 'content-type': 'audio/wav' },
      body: Buffer.alloc(10 * MB + 64 * 1024 + 1, 1),
    });
    expect(res.status).toBe(413);
    expect(res.json()).toEqual({
      code: 'payload_too_large',
      message: 'The request body is too large: the limit is 10 MB.',
      requestId: res.headers['x-request-id'],
    });
    expect(h.services.voice.seen.length).toBe(before);
  });

  it('keeps the voice service’s 64 KB on its JSON routes', async () => {
    const before = h.services.voice.seen.length;
    const res = await call(`${h.url}/api/translate`, {
      method: 'POST',
      headers: { ...pro(), 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'a'.repeat(70 * 1024), from: 'en', to: 'tw' }),
    });
    expect(res.status).toBe(413);
    expect(res.json()).toMatchObject({ message: 'The request body is too large: the limit is 64 KB.' });
    expect(h.services.voice.seen.length).toBe(before);
  });
});
