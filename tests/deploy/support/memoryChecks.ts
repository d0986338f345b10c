import type { ComponentSetup } from './configChecks';
import { label, quantity } from './objects';

const MIB = 2 ** 20;
/** What a worker thread holds besides its V8 heap limits: code, stacks, the native memory of what it decodes. */
const WORKER_OVERHEAD_MIB = 64;
/** geoip-lite's data, which the voice service holds in Buffers (outside the heap). */
const GEOIP_MIB = 128;
/** argon2id's memory per hash (services/auth/src/users/passwords.ts) and the libuv threads that run them at once. */
const ARGON2 = { mib: 19, threads: 4 };
/** What a main process holds besides its old generation (young generation, code, stacks, Buffers), at least. */
const MAIN_PROCESS_OVERHEAD = { mib: 64, fraction: 0.2 };

interface Besides {
  mib: number;
  what: string;
}

/** A number the component's configuration reader gave, or a problem naming the setting it lacks. */
function setting(config: Record<string, unknown> | undefined, name: string): number {
  const value = config?.[name];
  if (typeof value !== 'number') throw new Error(`its configuration gives no ${name}, which its memory depends on`);
  return value;
}

/**
 * Memory a component's pod holds besides its main process, from the component's configuration as the pod runs it:
 * chat's attachment worker threads, voice's heavy processes (eSpeak NG, ffmpeg) and geoip-lite's data, auth's
 * password hashes.
 */
export function besidesMainProcess(setup: ComponentSetup): Besides | undefined {
  const config = setup.reading.config;
  switch (setup.component) {
    case 'chat': {
      const threads = setting(config, 'CHAT_ATTACHMENT_THREADS_MAX');
      const old = setting(config, 'CHAT_ATTACHMENT_WORKER_MEMORY_MB');
      const young = setting(config, 'CHAT_ATTACHMENT_WORKER_YOUNG_MEMORY_MB');
      return {
        mib: threads * (old + young + WORKER_OVERHEAD_MIB),
        what: `${threads} attachment worker threads of ${old} + ${young} MB heap and ~${WORKER_OVERHEAD_MIB} MiB more each`,
      };
    }
    case 'voice': {
      const processes = setting(config, 'VOICE_PROCESS_POOL_SIZE');
      const each = setting(config, 'VOICE_PROCESS_MEMORY_MB');
      if (each === 0) throw new Error('runs its heavy processes without a memory limit (VOICE_PROCESS_MEMORY_MB=0)');
      return {
        mib: processes * each + GEOIP_MIB,
        what: `${processes} heavy processes of up to ${each} MB each and geoip-lite's ~${GEOIP_MIB} MiB of data`,
      };
    }
    case 'auth':
      return {
        mib: ARGON2.threads * ARGON2.mib,
        what: `argon2id hashes of ${ARGON2.mib} MiB each, ${ARGON2.threads} at once on libuv's threads`,
      };
    default:
      return undefined;
  }
}

/**
 * The main process of every component runs with a heap limit (NODE_OPTIONS=--max-old-space-size) a bit below what
 * its container's memory limit leaves it after its pod's workers, so that V8 collects harder, or ends the process
 * with an out-of-memory report, before the kernel kills the container: at most that share less its overhead, at
 * least half of it.
 */
export function memoryProblems(setups: ComponentSetup[]): string[] {
  const problems: string[] = [];
  for (const setup of setups) {
    const { deployment, container, env } = setup;
    const say = (problem: string) => problems.push(`${label(deployment)}: container ${container.name} ${problem}`);
    const limit = container.resources?.limits?.memory;
    if (limit === undefined) continue;
    const heap = Number(/--max-old-space-size=(\d+)/.exec(env.values.NODE_OPTIONS ?? '')?.[1] ?? NaN);
    if (!Number.isFinite(heap)) {
      say('sets no heap limit (NODE_OPTIONS=--max-old-space-size) below its memory limit');
      continue;
    }
    let besides: Besides | undefined;
    try {
      besides = besidesMainProcess(setup);
    } catch (err) {
      say((err as Error).message);
      continue;
    }
    const share = quantity(limit) / MIB - (besides?.mib ?? 0);
    const most = Math.floor(share - Math.max(MAIN_PROCESS_OVERHEAD.mib, share * MAIN_PROCESS_OVERHEAD.fraction));
    const room = besides ? ` after ${besides.mib} MiB for ${besides.what}` : '';
    if (share < 2 * MAIN_PROCESS_OVERHEAD.mib)
      say(`has a ${limit} memory limit, which leaves its main process ${share} MiB${room}: too little to run in`);
    else if (heap > most)
      say(`has a heap limit of ${heap} MiB, above ${most} MiB: its ${limit} memory limit leaves ${share} MiB${room}`);
    else if (heap < share / 2)
      say(`has a heap limit of ${heap} MiB, under half of the ${share} MiB its ${limit} memory limit leaves${room}`);
  }
  return problems;
}
