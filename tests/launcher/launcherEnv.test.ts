import { COMPONENTS, readComponentConfig } from '../deploy/support/componentConfig';

/** scripts/launcher.js's environment for the parts it starts (`npm start`: production mode, one machine). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { launcherEnv } = require('../../scripts/launcher') as {
  launcherEnv: (base: NodeJS.ProcessEnv, options: { dev: boolean }) => NodeJS.ProcessEnv;
};

describe('the launcher’s environment', () => {
  it('runs in production mode with every peer’s address on this machine, which every part accepts', () => {
    const env = launcherEnv({}, { dev: false });
    expect(env).toMatchObject({
      NODE_ENV: 'production',
      AUTH_SERVICE_URL: 'http://127.0.0.1:4001',
      CHAT_SERVICE_URL: 'http://127.0.0.1:4002',
      VOICE_SERVICE_URL: 'http://127.0.0.1:4003',
      STATUS_SERVICE_URL: 'http://127.0.0.1:4004',
    });
    for (const component of COMPONENTS)
      expect([component, readComponentConfig(component, env).problems]).toEqual([component, []]);
  });

  it('follows the ports it is given, and keeps an address it is given', () => {
    const env = launcherEnv({ CHAT_PORT: '5002', VOICE_SERVICE_URL: 'http://10.0.0.7:4003' }, { dev: true });
    expect(env).toMatchObject({
      NODE_ENV: 'development',
      CHAT_SERVICE_URL: 'http://127.0.0.1:5002',
      VOICE_SERVICE_URL: 'http://10.0.0.7:4003',
    });
  });

  it('is what a production service without the addresses would refuse', () => {
    const { AUTH_SERVICE_URL: _auth, ...withoutAuth } = launcherEnv({}, { dev: false });
    expect(readComponentConfig('status', withoutAuth).problems).toEqual([
      expect.stringMatching(/^AUTH_SERVICE_URL: is required when NODE_ENV=production/),
    ]);
  });
});
