import type { ServiceState, ServiceStatus, ServicesStatusResponse } from '@kasa/contracts';
import type { HeartbeatStore, ServiceInstance } from '../heartbeats/heartbeatStore';
import { probeService, type ProbeResult } from '../probes/readinessProbe';
import type { DashboardHealth } from '../queries/queryLimits';
import type { CallFigures, RequestStore } from '../requests/requestStore';
import { PLATFORM_SERVICES, type PlatformService } from '../requests/routeAreas';
import { aiProvidersSummary } from './aiProviders';

export interface ServicesStatusOptions {
  heartbeats: HeartbeatStore;
  requests: RequestStore;
  /** Where each service's /readyz is asked when its heartbeats stop (the gateway: its admin port). */
  probeUrls: Partial<Record<PlatformService, string>>;
  probeTimeoutMs: number;
  heartbeatIntervalMs: number;
  errorRateDegradedPercent: number;
  errorRateMinRequests: number;
  /** Time limit of each refresh's reads. */
  queryTimeoutMs?: number;
  /** The status service's own ability to answer its dashboards (it is degraded while they fail). */
  health?: DashboardHealth;
}

type Snapshot = ServicesStatusResponse['data'];

const DAY_MS = 86_400_000;
/** Heartbeats that may go missing before a service counts as silent. */
const MISSED_HEARTBEATS = 3;
const SEVERITY: Record<string, number> = { operational: 0, unknown: 0, degraded: 1, down: 2 };
/**
 * The parts a service shows before it has reported any (right after the platform starts, or after a day of silence):
 * voice's transcription and translation, as `unknown`. Its speech engines are only known once it names them.
 */
const UNREPORTED_PARTS: Partial<Record<PlatformService, readonly string[]>> = {
  voice: ['transcription', 'translation'],
};

/** The worse of two states. */
const worse = (a: ServiceState, b: ServiceState): ServiceState => (SEVERITY[b]! > SEVERITY[a]! ? b : a);
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * GET /api/developer/services/status as a snapshot in memory: `refresh()` (every second in the background, see
 * index.ts) builds it from heartbeats, readiness probes and the per-minute and per-hour request rollups; `read()`
 * answers from it without a query. The rules are written out in services/status/README.md.
 */
export class ServicesStatus {
  private snapshot?: { data: Snapshot; at: number };
  private inFlight?: Promise<Snapshot>;

  constructor(private readonly options: ServicesStatusOptions) {}

  /**
   * The latest snapshot; a new one is built first only when none is younger than `maxAgeMs` (at start, or when
   * refreshes stall), and concurrent callers share that one build.
   */
  async read(maxAgeMs = 5_000): Promise<Snapshot> {
    if (this.snapshot && Date.now() - this.snapshot.at <= maxAgeMs) return this.snapshot.data;
    try {
      return await this.refresh();
    } catch (err) {
      // Rebuilds failing (the database overloaded): the last snapshot still tells the rest, with the status service
      // itself degraded, which it is.
      if (!this.snapshot) throw err;
      const data = this.snapshot.data;
      const services = data.services.map((s) =>
        s.name === 'status' && s.status === 'operational' ? { ...s, status: 'degraded' } : s,
      );
      return {
        overall: { ...data.overall, status: worse(data.overall.status as ServiceState, 'degraded') },
        services,
      };
    }
  }

  /** Builds a new snapshot (one at a time: a refresh asked for during another shares it). */
  refresh(now?: Date): Promise<Snapshot> {
    if (this.inFlight && !now) return this.inFlight;
    const build = this.build(now ?? new Date())
      .then((data) => {
        this.snapshot = { data, at: Date.now() };
        return data;
      })
      .catch((err: unknown) => {
        this.options.health?.recordFailure();
        throw err;
      })
      .finally(() => {
        if (this.inFlight === build) this.inFlight = undefined;
      });
    if (!now) this.inFlight = build;
    return build;
  }

  private async build(now: Date): Promise<Snapshot> {
    const { heartbeats, requests, heartbeatIntervalMs } = this.options;
    const since24h = new Date(now.getTime() - DAY_MS);
    const limits = { maxTimeMS: this.options.queryTimeoutMs ?? 2_000 };
    const [instances, figures, uptimes] = await Promise.all([
      heartbeats.recentInstances(since24h),
      requests.serviceFigures(now, limits),
      Promise.all(PLATFORM_SERVICES.map((name) => heartbeats.uptime(name, now, DAY_MS, heartbeatIntervalMs))),
    ]);
    const zero: CallFigures = { calls: 0, errors: 0, durationMs: 0 };

    const services = await Promise.all(
      PLATFORM_SERVICES.map(async (name, index) => {
        const own = instances.filter((i) => i.service === name);
        const state = await this.stateOf(name, own, now, figures.lastMinutes.get(name) ?? zero);
        const uptime = uptimes[index] ?? null;
        const lastRequestAt = figures.lastRequestAt.get(name) ?? null;
        const { calls, errors } = figures.lastDay.get(name) ?? zero;
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

    const of = (name: PlatformService) => services.find((s) => s.entry.name === name)!;
    const chatParts = this.reportedParts('chat', of('chat'), now);
    const summary = aiProvidersSummary(chatParts);
    const parts = [...(summary ? [summary] : []), ...chatParts, ...this.reportedParts('voice', of('voice'), now)];

    // The platform is as well as its worst service. Parts (a provider whose circuit is open, translation without an
    // AI provider) show on their own lines: the service around them still answers, with its fallbacks.
    let overall: ServiceState = 'operational';
    for (const { entry } of services) overall = worse(overall, entry.status as ServiceState);
    const totalRequests = services.reduce((sum, s) => sum + s.entry.requests, 0);
    let duration24h = 0;
    for (const f of figures.lastDay.values()) duration24h += f.durationMs;
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
    // The status service answering while its dashboards time out is not operational.
    if (name === 'status' && state === 'operational' && this.options.health && !this.options.health.isHealthy())
      state = 'degraded';
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

  /**
   * The parts a service reports in its heartbeats (chat: its AI providers; voice: its speech engines, transcription
   * and translation), from its newest heartbeat that lists any. Each is `unknown` while the service is down or that
   * heartbeat is no longer fresh (three intervals): nobody says how it is now. Parts have the uptime of their service
   * and no request counts of their own.
   */
  private reportedParts(
    name: PlatformService,
    service: { entry: ServiceStatus; instances: ServiceInstance[] },
    now: Date,
  ): ServiceStatus[] {
    const { entry, instances } = service;
    const part = (partName: string, status: string, provider: string, lastResponse: string | null) => ({
      name: partName,
      status,
      provider,
      uptime: entry.uptime,
      lastResponse,
      requests: 0,
      errors: 0,
    });
    const newest = instances.find((i) => i.components.length > 0);
    if (!newest) return (UNREPORTED_PARTS[name] ?? []).map((p) => part(p, 'unknown', 'unknown', entry.lastResponse));
    const fresh = newest.at.getTime() >= now.getTime() - MISSED_HEARTBEATS * this.options.heartbeatIntervalMs;
    const known = fresh && entry.status !== 'down';
    return newest.components.map((c) => part(c.name, known ? c.state : 'unknown', c.provider, newest.at.toISOString()));
  }
}

function latest(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a > b ? a : b;
}
