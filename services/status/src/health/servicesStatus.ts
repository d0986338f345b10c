import type { ServiceState, ServiceStatus, ServicesStatusResponse } from '@kasa/contracts';
import type { HeartbeatStore, ServiceInstance } from '../heartbeats/heartbeatStore';
import { probeService, type ProbeResult } from '../probes/readinessProbe';
import type { RequestStore } from '../requests/requestStore';
import { PLATFORM_SERVICES, type PlatformService } from '../requests/routeAreas';
import { fetchVoiceStatus, voiceComponents, type ComponentState } from './voiceComponents';

export interface ServicesStatusOptions {
  heartbeats: HeartbeatStore;
  requests: RequestStore;
  /** Where each service's /readyz is asked when its heartbeats stop (the gateway: its admin port). */
  probeUrls: Partial<Record<PlatformService, string>>;
  voiceUrl: string;
  probeTimeoutMs: number;
  heartbeatIntervalMs: number;
  errorRateDegradedPercent: number;
  errorRateMinRequests: number;
}

const DAY_MS = 86_400_000;
const ERROR_WINDOW_MS = 5 * 60_000;
/** Heartbeats that may go missing before a service counts as silent. */
const MISSED_HEARTBEATS = 3;
const SEVERITY: Record<string, number> = { operational: 0, unknown: 0, degraded: 1, down: 2 };

/** The worse of two states. */
const worse = (a: ServiceState, b: ServiceState): ServiceState => (SEVERITY[b]! > SEVERITY[a]! ? b : a);
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Builds GET /api/developer/services/status from heartbeats, readiness probes and the gateway's request events.
 * The rules are written out in services/status/README.md.
 */
export class ServicesStatus {
  /** The voice service's parts as last seen, so that they stay listed (as unknown) while voice is away. */
  private lastVoiceParts: ComponentState[] = [];

  constructor(private readonly options: ServicesStatusOptions) {}

  async read(now = new Date()): Promise<ServicesStatusResponse['data']> {
    const { heartbeats, requests, heartbeatIntervalMs } = this.options;
    const since24h = new Date(now.getTime() - DAY_MS);
    const [instances, perService24h, perService5m, duration24h, voiceBody] = await Promise.all([
      heartbeats.recentInstances(since24h),
      requests.countBy<{ service: string; isError: number }>(
        { at: { $gte: since24h } },
        {
          service: '$service',
          isError: '$isError',
        },
      ),
      requests.countBy<{ service: string; isError: number }>(
        { at: { $gte: new Date(now.getTime() - ERROR_WINDOW_MS) } },
        {
          service: '$service',
          isError: '$isError',
        },
      ),
      requests.totalDuration({ at: { $gte: since24h } }),
      fetchVoiceStatus(this.options.voiceUrl, this.options.probeTimeoutMs),
    ]);
    const tally = (rows: typeof perService24h, service: string) => {
      let calls = 0;
      let errors = 0;
      for (const { key, count } of rows) {
        if (key.service !== service) continue;
        calls += count;
        if (key.isError === 1) errors += count;
      }
      return { calls, errors };
    };

    const services = await Promise.all(
      PLATFORM_SERVICES.map(async (name) => {
        const own = instances.filter((i) => i.service === name);
        const [state, uptime, lastRequestAt] = await Promise.all([
          this.stateOf(name, own, now, tally(perService5m, name)),
          heartbeats.uptime(name, now, DAY_MS, heartbeatIntervalMs),
          requests.latestAt({ service: name }),
        ]);
        const { calls, errors } = tally(perService24h, name);
        const lastHeartbeat = own[0]?.at ?? null;
        const lastResponse = latest(lastHeartbeat, lastRequestAt);
        const entry: ServiceStatus = {
          name,
          status: state,
          provider: 'kasa',
          uptime: uptime ?? (state === 'down' ? 0 : 100),
          lastResponse: lastResponse ? lastResponse.toISOString() : null,
          requests: calls,
          errors,
        };
        return { entry, instances: own };
      }),
    );

    const parts = [
      ...this.chatParts(services.find((s) => s.entry.name === 'chat')!),
      ...this.voiceParts(services.find((s) => s.entry.name === 'voice')!.entry, voiceBody, now),
    ];

    // The platform is as well as its worst service. Parts (a provider whose circuit is open, translation without an
    // AI provider) show on their own lines: the service around them still answers, with its fallbacks.
    let overall: ServiceState = 'operational';
    for (const { entry } of services) overall = worse(overall, entry.status as ServiceState);
    const totalRequests = services.reduce((sum, s) => sum + s.entry.requests, 0);
    return {
      overall: {
        status: overall,
        uptime: round(services.reduce((sum, s) => sum + s.entry.uptime, 0) / services.length, 2),
        totalRequests,
        totalErrors: services.reduce((sum, s) => sum + s.entry.errors, 0),
        avgResponseTime: totalRequests > 0 ? round(duration24h / totalRequests, 1) : 0,
      },
      services: [...services.map((s) => s.entry), ...parts],
    };
  }

  /**
   * Heard from within the last three intervals: degraded if no process says it is ready or if more than the
   * threshold of its calls in the last 5 minutes failed (5xx), else operational. Silent: its readiness probe decides
   * (ready: operational, answering but not ready: degraded, no answer: down).
   */
  private async stateOf(
    name: PlatformService,
    own: ServiceInstance[],
    now: Date,
    recent: { calls: number; errors: number },
  ): Promise<ServiceState> {
    const freshSince = now.getTime() - MISSED_HEARTBEATS * this.options.heartbeatIntervalMs;
    const fresh = own.filter((i) => i.at.getTime() >= freshSince);
    let state: ServiceState;
    if (fresh.length > 0) state = fresh.some((i) => i.ready) ? 'operational' : 'degraded';
    else state = (await this.probe(name)).status;
    const { errorRateDegradedPercent, errorRateMinRequests } = this.options;
    if (
      state === 'operational' &&
      recent.calls >= errorRateMinRequests &&
      (recent.errors / recent.calls) * 100 > errorRateDegradedPercent
    ) {
      state = 'degraded';
    }
    return state;
  }

  private probe(name: PlatformService): Promise<ProbeResult> {
    // The status service is answering this very request.
    if (name === 'status') return Promise.resolve({ name, status: 'operational', latencyMs: 0, checks: {} });
    const url = this.options.probeUrls[name];
    if (!url) return Promise.resolve({ name, status: 'down', latencyMs: null, checks: {} });
    return probeService(name, url, this.options.probeTimeoutMs);
  }

  /** Chat's AI providers, from the components of its newest heartbeat; unknown while chat is down. */
  private chatParts(chat: { entry: ServiceStatus; instances: ServiceInstance[] }): ServiceStatus[] {
    const newest = chat.instances.find((i) => i.components.length > 0);
    if (!newest) return [];
    return newest.components.map((c) => ({
      name: c.name,
      status: chat.entry.status === 'down' ? 'unknown' : c.state,
      provider: c.provider,
      uptime: chat.entry.uptime,
      lastResponse: newest.at.toISOString(),
      requests: 0,
      errors: 0,
    }));
  }

  /** Voice's speech engines and translation, as voice reports them now; unknown while it does not answer. */
  private voiceParts(voice: ServiceStatus, body: unknown, now: Date): ServiceStatus[] {
    const answered = body !== undefined;
    const parts: ComponentState[] = answered
      ? voiceComponents(body)
      : this.lastVoiceParts.length > 0
        ? this.lastVoiceParts.map((p) => ({ ...p, state: 'unknown' as const }))
        : voiceComponents(undefined);
    if (answered) this.lastVoiceParts = parts;
    return parts.map((p) => ({
      name: p.name,
      status: p.state,
      provider: p.provider,
      uptime: voice.uptime,
      lastResponse: answered ? now.toISOString() : voice.lastResponse,
      requests: 0,
      errors: 0,
    }));
  }
}

function latest(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a > b ? a : b;
}
