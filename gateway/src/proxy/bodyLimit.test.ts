import { BODY_LIMITS } from '@kasa/contracts';
import type { EgConfig } from '../eg/types';
import { MAX_ROUTE_BODY_BYTES, parseMaxBodyBytes, routeBodyLimits } from './bodyLimit';

const DEFAULT = 1024 * 1024;

describe('the maxBodyBytes option of kasa-proxy', () => {
  it('is the gateway default when a route sets none', () => {
    expect(parseMaxBodyBytes(undefined, DEFAULT)).toBe(DEFAULT);
    expect(parseMaxBodyBytes(null, DEFAULT)).toBe(DEFAULT);
  });

  it('takes the name of a shared limit, so the gateway and the service read one number', () => {
    expect(parseMaxBodyBytes('chat', DEFAULT)).toBe(BODY_LIMITS.chat);
    expect(parseMaxBodyBytes('openAI', DEFAULT)).toBe(BODY_LIMITS.openAI);
    expect(parseMaxBodyBytes('transcription', DEFAULT)).toBe(BODY_LIMITS.transcription);
  });

  it('takes a number of bytes, also as the digits YAML templating hands over', () => {
    expect(parseMaxBodyBytes(2048, DEFAULT)).toBe(2048);
    expect(parseMaxBodyBytes('4096', DEFAULT)).toBe(4096);
    expect(parseMaxBodyBytes(MAX_ROUTE_BODY_BYTES, DEFAULT)).toBe(MAX_ROUTE_BODY_BYTES);
  });

  it.each([0, -1, 1.5, MAX_ROUTE_BODY_BYTES + 1, '10mb', 'Chat', '', true, {}])(
    'refuses %p at start-up with a message naming the route and what is allowed',
    (value) => {
      expect(() => parseMaxBodyBytes(value, DEFAULT, 'kasa-proxy (serviceEndpoint chat)')).toThrow(
        /^kasa-proxy \(serviceEndpoint chat\): maxBodyBytes .* is not valid: use a number of bytes \(1 to 104857600\) or the name of a shared limit \(auth, chat, openAI, voice, attachments, transcription, status, webhooks\)$/,
      );
    },
  );
});

describe('the body limit of each route', () => {
  const config = (pipelines: NonNullable<EgConfig['gatewayConfig']['pipelines']>): EgConfig => ({
    gatewayConfig: { pipelines },
  });

  it('is the kasa-proxy step’s limit, for every API endpoint of the pipeline', () => {
    const limits = routeBodyLimits(
      config({
        chat: {
          apiEndpoints: ['chat', 'personas'],
          policies: [
            { 'kasa-jwt': null },
            { 'kasa-idempotency': null },
            { 'kasa-proxy': [{ action: { serviceEndpoint: 'chat', maxBodyBytes: 'chat' } }] },
          ],
        },
        upload: {
          apiEndpoints: 'upload',
          policies: [{ 'kasa-proxy': [{ action: { serviceEndpoint: 'voice', maxBodyBytes: 'transcription' } }] }],
        },
        plain: { apiEndpoints: ['plain'], policies: [{ 'kasa-proxy': [{ action: { serviceEndpoint: 'auth' } }] }] },
        web: { apiEndpoints: ['web'], policies: [{ 'kasa-static': null }] },
      }),
      DEFAULT,
    );
    expect(Object.fromEntries(limits)).toEqual({
      chat: BODY_LIMITS.chat,
      personas: BODY_LIMITS.chat,
      upload: BODY_LIMITS.transcription,
      plain: DEFAULT,
    });
  });

  it('is the largest where conditions choose between proxy steps, so nothing the proxy takes is refused before', () => {
    const limits = routeBodyLimits(
      config({
        mixed: {
          apiEndpoints: ['mixed'],
          policies: [
            {
              'kasa-proxy': [
                {
                  condition: { name: 'pathExact', path: '/big' },
                  action: { serviceEndpoint: 'x', maxBodyBytes: 5000 },
                },
                { action: { serviceEndpoint: 'x', maxBodyBytes: 100 } },
              ],
            },
          ],
        },
      }),
      DEFAULT,
    );
    expect(limits.get('mixed')).toBe(5000);
  });

  it('is unknown without a gateway configuration (the default applies)', () => {
    expect(routeBodyLimits(undefined, DEFAULT).size).toBe(0);
    expect(routeBodyLimits({} as EgConfig, DEFAULT).size).toBe(0);
  });

  it('refuses a pipeline whose limit is not valid, naming the pipeline', () => {
    expect(() =>
      routeBodyLimits(
        config({
          broken: { apiEndpoints: ['broken'], policies: [{ 'kasa-proxy': [{ action: { maxBodyBytes: 'lots' } }] }] },
        }),
        DEFAULT,
      ),
    ).toThrow(/^pipeline broken, kasa-proxy: maxBodyBytes "lots" is not valid/);
  });
});
