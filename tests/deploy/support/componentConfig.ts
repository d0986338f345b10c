import { ConfigError } from '@kasa/service-kit';
import { loadGatewayConfig } from '../../../gateway/src/config';
import { readConfig as readAuthConfig } from '../../../services/auth/src/config';
import { readConfig as readChatConfig } from '../../../services/chat/src/config';
import { readConfig as readStatusConfig } from '../../../services/status/src/config';
import { readConfig as readVoiceConfig } from '../../../services/voice/src/config';

export const COMPONENTS = ['auth', 'chat', 'voice', 'status', 'gateway'] as const;
export type Component = (typeof COMPONENTS)[number];

/** Each component's own configuration reader, from its source (src/config.ts), the code that runs at start. */
const READERS: Record<Component, (env: NodeJS.ProcessEnv) => object> = {
  auth: readAuthConfig,
  chat: readChatConfig,
  voice: readVoiceConfig,
  status: readStatusConfig,
  gateway: loadGatewayConfig,
};

export const isComponent = (name: string): name is Component => (COMPONENTS as readonly string[]).includes(name);

export interface ConfigReading {
  /** Every variable the reader looked at: the schema's keys, and those it derives (a chat provider's key). */
  read: Set<string>;
  /** What the reader refused, as the service would print it before exiting. */
  problems: string[];
  config?: Record<string, unknown>;
}

/**
 * Runs a component's configuration reader over an environment, noting each variable it looks at. Reading the
 * schema this way, rather than parsing the source, follows whatever the reader does (extended base schemas,
 * variables named after other variables).
 */
export function readComponentConfig(component: Component, env: Record<string, string | undefined>): ConfigReading {
  const read = new Set<string>();
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined));
  const recorder = new Proxy(defined, {
    get(target, key, receiver) {
      if (typeof key === 'string') read.add(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
    has(target, key) {
      if (typeof key === 'string') read.add(key);
      return Reflect.has(target, key);
    },
  });
  try {
    const config = READERS[component](recorder) as Record<string, unknown>;
    return { read: onlyVariableNames(read), problems: [], config };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { read: onlyVariableNames(read), problems: error.problems };
  }
}

const onlyVariableNames = (keys: Set<string>) => new Set([...keys].filter((k) => /^[A-Z][A-Z0-9_]*$/.test(k)));

/**
 * Variables whose default only works on one machine (127.0.0.1: the service listens on, or calls, the loopback
 * interface), so every container must set them.
 */
export function loopbackDefaults(component: Component): string[] {
  const { config, read } = readComponentConfig(component, {});
  return [...read].filter((name) => JSON.stringify(config?.[name] ?? '').includes('127.0.0.1'));
}

/** Settings a container needs although their defaults work on one machine, and why. */
export const NEEDED_IN_CONTAINERS: Partial<Record<Component, Record<string, string>>> = {
  gateway: { REDIS_URL: 'without it each replica counts rate limits and quotas on its own' },
};
