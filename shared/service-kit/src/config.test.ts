import { z } from 'zod';
import { ConfigError, baseServiceEnv, loadConfig, serviceUrl } from './config';

const schema = baseServiceEnv.extend({
  VOICE_SERVICE_URL: serviceUrl('http://127.0.0.1:4003'),
  STATUS_SERVICE_URL: serviceUrl('http://127.0.0.1:4004'),
});

/** The ConfigError's list of problems when `run` refuses the environment. */
function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('the configuration was accepted');
}

describe('serviceUrl', () => {
  it('defaults to the loopback address outside production', () => {
    for (const NODE_ENV of [undefined, 'development', 'test']) {
      expect(loadConfig(schema, { NODE_ENV })).toMatchObject({
        VOICE_SERVICE_URL: 'http://127.0.0.1:4003',
        STATUS_SERVICE_URL: 'http://127.0.0.1:4004',
      });
    }
  });

  it('is required in production: the service refuses to start, naming each variable left unset', () => {
    const problems = problemsOf(() => loadConfig(schema, { NODE_ENV: 'production', STATUS_SERVICE_URL: '' }));
    expect(problems).toEqual([
      expect.stringMatching(/^VOICE_SERVICE_URL: is required when NODE_ENV=production: .*http:\/\/voice:4003/),
      expect.stringMatching(/^STATUS_SERVICE_URL: is required when NODE_ENV=production: .*http:\/\/status:4004/),
    ]);
    // What runMain prints before exiting.
    expect(new ConfigError(problems).message).toContain('  - VOICE_SERVICE_URL: is required');
  });

  it('takes the address given in production, a loopback one included (one machine), without trailing slashes', () => {
    const config = loadConfig(schema, {
      NODE_ENV: 'production',
      VOICE_SERVICE_URL: 'http://voice:4003/',
      STATUS_SERVICE_URL: 'http://127.0.0.1:4004',
    });
    expect(config).toMatchObject({
      VOICE_SERVICE_URL: 'http://voice:4003',
      STATUS_SERVICE_URL: 'http://127.0.0.1:4004',
    });
  });

  it('refuses what is not an http(s) URL, alongside the other problems', () => {
    const problems = problemsOf(() =>
      loadConfig(schema, { NODE_ENV: 'production', VOICE_SERVICE_URL: 'voice:4003', LOG_LEVEL: 'loud' }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^STATUS_SERVICE_URL: is required/),
        expect.stringMatching(/^VOICE_SERVICE_URL: must be an http/),
        expect.stringMatching(/^LOG_LEVEL: /),
      ]),
    );
  });

  it('is found behind a refinement of the schema, as a service that checks settings together writes it', () => {
    const refined = schema.superRefine(() => undefined);
    expect(problemsOf(() => loadConfig(refined, { NODE_ENV: 'production' }))).toHaveLength(2);
    const piped = schema.transform((env) => ({ ...env, extra: true }));
    expect(problemsOf(() => loadConfig(piped, { NODE_ENV: 'production' }))).toHaveLength(2);
    expect(loadConfig(z.object({ A: z.string().default('a') }), { NODE_ENV: 'production' })).toEqual({ A: 'a' });
  });
});
