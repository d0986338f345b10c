import { AuthOperatorCheck, type OperatorCheck } from '@kasa/service-kit';
import type { Connection } from 'mongoose';
import type { StatusConfig } from '../config';
import { dayOf, monthOfDay } from '../rollups/buckets';
import { statusCollections, type RollupCollection } from '../rollups/collections';
import type { ServicesStatus } from '../health/servicesStatus';
import type { RequestStore } from '../requests/requestStore';
import { AdminHealth } from './adminHealth';
import type { AdminRoutesDeps } from './adminRouter';
import { UptimeHistory } from './uptimeHistory';
import { UsageLeaders } from './usageLeaders';
import { usageUpdates, type UsageCollections } from './usageRollups';

const DAY_MS = 86_400_000;
/** How often the usage top lists are brought up to date in the background (each usage answer does it too). */
export const USAGE_LEADERS_INTERVAL_MS = 15_000;
/** How often heartbeat hours are copied into the 30 days of uptime, and old records of both are deleted. */
export const ADMIN_TIDY_INTERVAL_MS = 10 * 60_000;

export interface AdminComponents {
  /** What `createApp` serves at /api/admin/health and /api/admin/usage. */
  routes: AdminRoutesDeps;
  leaders: UsageLeaders;
  uptime: UptimeHistory;
  /** The periodic upkeep: 30 days of uptime, and retention of the usage rollups. */
  tidy(now?: Date): Promise<void>;
}

/**
 * The operators' health and usage, built over the status service's components. Registers the usage rollups with
 * every batch of requests (so call it before events are consumed); `index.ts` schedules `leaders.refresh()` and
 * `tidy()` and hands `routes` to `createApp`.
 */
export function createAdminComponents(deps: {
  db: Connection;
  settings: Pick<
    StatusConfig,
    'AUTH_SERVICE_URL' | 'HEARTBEAT_INTERVAL_MS' | 'STATUS_QUERY_TIMEOUT_MS' | 'STATUS_RETENTION_DAYS'
  >;
  status: { servicesStatus: ServicesStatus; stores: { requests: RequestStore } };
  /** Whether a person is an operator (default: ask the auth service at AUTH_SERVICE_URL). */
  operators?: OperatorCheck;
}): AdminComponents {
  const { db, settings, status } = deps;
  const named = (name: string) => db.collection(name) as unknown as RollupCollection;
  const collections: UsageCollections = { activity: named('usage_activity'), leaders: named('usage_leaders') };
  status.stores.requests.alsoWrite((data, now) => usageUpdates(collections, data, now));

  const leaders = new UsageLeaders({
    collections,
    requests: status.stores.requests,
    queryTimeoutMs: settings.STATUS_QUERY_TIMEOUT_MS,
  });
  const uptime = new UptimeHistory(db, settings.HEARTBEAT_INTERVAL_MS);
  const { services, apiKeyOwners } = statusCollections(db);
  const figures = new AdminHealth({
    servicesStatus: status.servicesStatus,
    serviceRollups: services,
    uptime,
    leaders,
    apiKeyOwners,
  });
  return {
    routes: { figures, operators: deps.operators ?? new AuthOperatorCheck(settings.AUTH_SERVICE_URL) },
    leaders,
    uptime,
    async tidy(now = new Date()) {
      // A month goes once all its days are older than the retention, as the people's month documents do.
      const cutMonth = monthOfDay(dayOf(now.getTime() - settings.STATUS_RETENTION_DAYS * DAY_MS));
      await Promise.all([uptime.fold(now), leaders.deleteOlderThan(cutMonth, now)]);
    },
  };
}
