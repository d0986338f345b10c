import type { EventData } from '@kasa/contracts';
import { dayOf, fieldKey, fromFieldKey, minuteOf, monthOfDay } from '../rollups/buckets';
import type { RollupCollection } from '../rollups/collections';
import type { RollupUpdate } from '../rollups/rollupWriter';
import { routeArea } from '../requests/routeAreas';

const MINUTE_MS = 60_000;
/** How long the record of who made calls in a minute is kept: the top lists catch up well within it. */
export const ACTIVITY_KEPT_MS = 2 * 3_600_000;

/**
 * The operators' usage rollups, beside the people's own (`usage_months_NN`):
 * - `usage_activity`: one document per minute in which batches were stored (`a|<minute>`, the minute of storing, not
 *   of the calls, so a late batch is seen too): whose calls and which keys' (`m.<month>.p.<caller>`,
 *   `m.<month>.k.<caller>~<keyId>`) and `calls` in all. Read by the top lists' updates; kept ACTIVITY_KEPT_MS.
 * - `usage_leaders`: per UTC month, its totals (`t|<month>`, `$inc` with every batch) and its top lists (`l|<month>`,
 *   rewritten by UsageLeaders off the event path). Kept as long as the month's usage documents.
 */
export interface UsageCollections {
  activity: RollupCollection;
  leaders: RollupCollection;
}

export const activityId = (minute: string) => `a|${minute}`;
export const totalsId = (month: string) => `t|${month}`;
export const leadersId = (month: string) => `l|${month}`;

/** A key's entry in an activity document: its caller and its id, each a fieldKey (which escapes `~`). */
const keyEntry = (callerId: string, keyId: string) => `${fieldKey(callerId)}~${fieldKey(keyId)}`;
export function fromKeyEntry(entry: string): { callerId: string; keyId: string } | null {
  const [caller, key, ...rest] = entry.split('~');
  if (caller === undefined || key === undefined || rest.length > 0) return null;
  const callerId = fromFieldKey(caller);
  const keyId = fromFieldKey(key);
  return callerId && keyId ? { callerId, keyId } : null;
}

const add = (into: Record<string, number>, path: string, n: number) => {
  into[path] = (into[path] ?? 0) + n;
};

/**
 * What one batch of the gateway's requests adds to the operators' rollups, written with the batch's other rollups
 * (RequestStore.alsoWrite): the months' totals, and the minute's record of who called.
 */
export function usageUpdates(
  collections: UsageCollections,
  data: EventData<'gateway.request.completed'>,
  now: Date,
): RollupUpdate[] {
  const totals = new Map<string, Record<string, number>>();
  const activity: Record<string, number> = {};
  for (const r of data.requests) {
    const month = monthOfDay(dayOf(new Date(r.at)));
    let inc = totals.get(month);
    if (!inc) totals.set(month, (inc = {}));
    add(inc, 'calls', 1);
    if (r.status >= 500) add(inc, 'serverErrors', 1);
    else if (r.status >= 400) add(inc, 'clientErrors', 1);
    // As the person's own day counts it (requestStore): a caller, a route with a monthly quota, not refused.
    if (routeArea(r.route).monthlyQuota && r.userId !== undefined && r.status !== 429) add(inc, 'quotaCalls', 1);
    if (r.apiKeyId !== undefined) add(inc, 'keyCalls', 1);
    add(inc, 'durationMs', r.durationMs);
    if (r.userId === undefined) continue;
    add(activity, `m.${month}.p.${fieldKey(r.userId)}`, 1);
    if (r.apiKeyId !== undefined) add(activity, `m.${month}.k.${keyEntry(r.userId, r.apiKeyId)}`, 1);
    add(activity, 'calls', 1);
  }
  const updates: RollupUpdate[] = [...totals].map(([month, inc]) => ({
    collection: collections.leaders,
    id: totalsId(month),
    inc,
    setOnInsert: { kind: 'totals', month },
  }));
  if (activity.calls) {
    const minute = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS);
    updates.push({
      collection: collections.activity,
      id: activityId(minuteOf(minute)),
      inc: activity,
      setOnInsert: { at: minute },
    });
  }
  return updates;
}
