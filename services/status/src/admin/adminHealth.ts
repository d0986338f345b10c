import type {
  AdminHealthResponse,
  AdminServiceHealth,
  AdminUsageResponse,
  ServiceState,
  ServiceStatus,
} from '@kasa/contracts';
import type { ServicesStatus } from '../health/servicesStatus';
import type { ReadLimits } from '../queries/queryLimits';
import { PLATFORM_SERVICES } from '../requests/routeAreas';
import type { RollupCollection } from '../rollups/collections';
import { addSums, serviceWindows, windowFigures, type WindowSums } from './serviceWindows';
import type { UptimeHistory } from './uptimeHistory';
import type { UsageLeaders } from './usageLeaders';

const DAY_MS = 86_400_000;
/** The 30-day uptime moves slowly: it is read again at most once a minute. */
const UPTIME_30D_FRESH_MS = 60_000;
const STATES = new Set<string>(['operational', 'degraded', 'down']);
const PART_STATES = new Set<string>(['operational', 'degraded', 'down', 'unknown']);

const round2 = (value: number) => Math.round(value * 100) / 100;
const stateOf = (status: string | undefined): ServiceState =>
  status && STATES.has(status) ? (status as ServiceState) : 'down';

export interface AdminHealthDeps {
  servicesStatus: Pick<ServicesStatus, 'read'>;
  /** `service_rollups`: the per-minute and per-hour counts per service. */
  serviceRollups: RollupCollection;
  uptime: UptimeHistory;
  leaders: UsageLeaders;
  /** `api_key_owners`: whose each API key is, as auth announced it (see ApiKeyOwners). */
  apiKeyOwners: RollupCollection;
}

interface KeyOwner {
  userId?: string;
  teamId?: string | null;
  revokedAt?: Date;
}

/**
 * The operators' health and usage figures (GET /api/admin/health and /api/admin/usage), read from what dashboards
 * read: the service status snapshot in memory, the per-minute and per-hour service rollups, the 30 days of uptime,
 * and one month's totals and top lists. No read grows with history or with the number of people.
 */
export class AdminHealth {
  private uptime30d?: { at: number; values: Map<string, number> };

  constructor(private readonly deps: AdminHealthDeps) {}

  async health(limits: ReadLimits, now = new Date()): Promise<AdminHealthResponse> {
    const [snapshot, windows, uptime30d] = await Promise.all([
      this.deps.servicesStatus.read(),
      serviceWindows(this.deps.serviceRollups, now, limits),
      this.uptimes30d(now, limits),
    ]);
    const byName = new Map(snapshot.services.map((s) => [s.name, s]));
    const services: AdminServiceHealth[] = PLATFORM_SERVICES.map((name) => {
      const entry = byName.get(name);
      const status = stateOf(entry?.status);
      // A service never heard of has what the status page gives it: 0 when down, else 100.
      const uptime24h = entry?.uptime ?? (status === 'down' ? 0 : 100);
      return {
        name,
        status,
        uptime24h,
        uptime30d: uptime30d.get(name) ?? uptime24h,
        lastResponse: entry?.lastResponse ?? null,
        lastHour: windowFigures(windows.lastHour.get(name)),
        lastDay: windowFigures(windows.lastDay.get(name)),
      };
    });
    const all = (sums: Map<string, WindowSums>) => {
      const total: WindowSums = { calls: 0, clientErrors: 0, errors: 0, durationMs: 0, latency: {} };
      for (const s of sums.values()) addSums(total, s);
      return windowFigures(total);
    };
    const parts = snapshot.services
      .filter((s: ServiceStatus) => !(PLATFORM_SERVICES as readonly string[]).includes(s.name))
      .map((s) => ({
        name: s.name,
        status: (PART_STATES.has(s.status) ? s.status : 'unknown') as AdminHealthResponse['parts'][number]['status'],
        provider: s.provider,
      }));
    return {
      checkedAt: now.toISOString(),
      overall: {
        status: stateOf(snapshot.overall.status),
        uptime24h: round2(services.reduce((sum, s) => sum + s.uptime24h, 0) / services.length),
        uptime30d: round2(services.reduce((sum, s) => sum + s.uptime30d, 0) / services.length),
        lastHour: all(windows.lastHour),
        lastDay: all(windows.lastDay),
      },
      services,
      parts,
    };
  }

  /**
   * A month's totals and its ten people and ten keys with the most calls. The lists are brought up to date first
   * (within half the time limit; past it the stored lists are answered, and the update carries on).
   */
  async usage(month: string, limits: ReadLimits): Promise<AdminUsageResponse> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.deps.leaders.refresh().catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, limits.maxTimeMS / 2))),
    ]);
    clearTimeout(timer);
    const { totals, people, keys, updatedAt } = await this.deps.leaders.read(month, limits);
    const owners = (await Promise.all(
      keys.map((k) =>
        this.deps.apiKeyOwners.findOne({ _id: k.keyId }, { maxTimeMS: limits.maxTimeMS, signal: limits.signal }),
      ),
    )) as Array<KeyOwner | null>;
    const count = (name: string) => (typeof totals?.[name] === 'number' ? (totals[name] as number) : 0);
    const calls = count('calls');
    return {
      month,
      updatedAt: updatedAt ? updatedAt.toISOString() : null,
      totals: {
        calls,
        clientErrors: count('clientErrors'),
        serverErrors: count('serverErrors'),
        quotaCalls: count('quotaCalls'),
        keyCalls: count('keyCalls'),
        averageMs: calls > 0 ? Math.round((count('durationMs') / calls) * 10) / 10 : null,
      },
      people: people.map(({ id, kind, calls: c, clientErrors, serverErrors, quotaCalls }) => ({
        id,
        kind,
        calls: c,
        clientErrors,
        serverErrors,
        quotaCalls,
      })),
      keys: keys.map((k, i) => ({
        keyId: k.keyId,
        callerId: k.callerId,
        createdBy: owners[i]?.userId ?? null,
        teamId: owners[i]?.teamId ?? null,
        revoked: !!owners[i]?.revokedAt,
        calls: k.calls,
        clientErrors: k.clientErrors,
        serverErrors: k.serverErrors,
      })),
    };
  }

  private async uptimes30d(now: Date, limits: ReadLimits): Promise<Map<string, number>> {
    const cached = this.uptime30d;
    if (cached && now.getTime() - cached.at < UPTIME_30D_FRESH_MS) return cached.values;
    const values = await this.deps.uptime.uptimes(now, 30 * DAY_MS, limits);
    this.uptime30d = { at: now.getTime(), values };
    return values;
  }
}
