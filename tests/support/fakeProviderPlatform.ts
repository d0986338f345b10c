import { FakeOpenAI, fakeProviderEnv } from './fakeOpenAI';
import { startPlatform, type RunningPlatform } from './platform';

/** What a test file gets from usePlatformWithFakeProvider; both are set once its beforeAll has run. */
export interface FakeProviderPlatform {
  platform: RunningPlatform;
  provider: FakeOpenAI;
}

/** What the fake provider answers at the start of every test. */
export const FAKE_REPLY = 'Hello from the fake provider.';

/**
 * The built platform with one AI provider, a fake at the edge of the world, for one test file: registers its jest
 * hooks (start both, reset the fake to answer FAKE_REPLY before each test, stop both after) and returns the pair.
 */
export function usePlatformWithFakeProvider(env: Record<string, string> = {}): FakeProviderPlatform {
  const world = {} as FakeProviderPlatform;
  beforeAll(async () => {
    world.provider = await new FakeOpenAI().start();
    world.platform = await startPlatform({ ...fakeProviderEnv(world.provider), ...env });
  }, 120_000);
  beforeEach(() => {
    if (world.provider) world.provider.mode = { kind: 'ok', text: FAKE_REPLY };
  });
  afterAll(async () => {
    await world.platform?.stop();
    await world.provider?.stop();
  });
  return world;
}
