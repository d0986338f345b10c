import { ADMIN_USAGE_TOP, TEAM_PRINCIPAL_PREFIX, type AdminUsageResponse } from '@kasa/contracts';
import { fromFieldKey, minuteOf } from '../rollups/buckets';
import { findByIds, type Doc } from '../rollups/collections';
import type { ReadLimits } from '../queries/queryLimits';
import type { DayBucket, RequestStore, UsageMonth } from '../requests/requestStore';
import { ACTIVITY_KEPT_MS, activityId, fromKeyEntry, leadersId, totalsId, type UsageCollections } from './usageRollups';

const MINUTE_MS = 60_000;
/**
 * Minutes read again at each update: a minute's record of who called can be written before their month documents
 * (one bulk write of the lane writes collection after collection), so whoever it names is read again at the next
 * updates too. A record written later than this after its minute (the lane held up for minutes) reaches the lists
 * with that person's next call.
 */
const OVERLAP_MS = 3 * MINUTE_MS;
/** Month documents read at once while updating. */
const PARALLEL_READS = 16;
/** Attempts at writing a month's top lists when another writer changed them meanwhile. */
const ATTEMPTS = 5;

interface Figures {
  calls: number;
  clientErrors: number;
  serverErrors: number;
}
type PersonEntry = AdminUsageResponse['people'][number];
interface KeyEntry extends Figures {
  keyId: string;
  callerId: string;
}
interface LeadersDoc extends Doc {
  people?: PersonEntry[];
  keys?: KeyEntry[];
  v?: number;
  updatedAt?: Date;
}

/** A person's or a key's figures of one month, from its month document (summed over its days). */
function figuresOf(doc: UsageMonth | undefined): Figures & { quotaCalls: number } {
  const out = { calls: 0, clientErrors: 0, serverErrors: 0, quotaCalls: 0 };
  for (const day of Object.values(doc?.days ?? {}) as DayBucket[]) {
    out.calls += day.calls ?? 0;
    out.serverErrors += day.errors ?? 0;
    out.quotaCalls += day.quota ?? 0;
    for (const [status, n] of Object.entries(day.status ?? {})) {
      const code = Number(status);
      if (code >= 400 && code < 500) out.clientErrors += n;
    }
  }
  return out;
}

/** The entries with the most calls (ties by id), fresh figures replacing stored ones; at most ADMIN_USAGE_TOP. */
function top<T extends { calls: number }>(stored: T[], fresh: T[], idOf: (entry: T) => string): T[] {
  const byId = new Map(stored.map((entry) => [idOf(entry), entry]));
  for (const entry of fresh) byId.set(idOf(entry), entry);
  return [...byId.values()]
    .filter((entry) => entry.calls > 0)
    .sort((a, b) => b.calls - a.calls || (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0))
    .slice(0, ADMIN_USAGE_TOP);
}

async function mapLimited<T, R>(items: T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += PARALLEL_READS)
    out.push(...(await Promise.all(items.slice(i, i + PARALLEL_READS).map(run))));
  return out;
}

/**
 * The month's ten people and ten API keys with the most calls, kept in one small document per month (`l|<month>` in
 * `usage_leaders`) so that the operators' usage page reads one document, never the month's usage of everyone.
 *
 * `refresh()` runs in the background (every USAGE_LEADERS_INTERVAL_MS) and before each usage answer. It reads the
 * minutes' records of who called (`usage_activity`) since its last run, reads those people's and keys' month
 * documents (exact `_id` reads, from the rollup cache where it holds them), and merges their exact figures into the
 * lists. The lists stay exact because a month's figures only grow and every change of one is looked at: someone not
 * in the list has not called since they were last found below its tenth. Each write is conditional on the version
 * read, so two replicas updating at once never lose an entry.
 */
export class UsageLeaders {
  private cursor = -Infinity;
  private inFlight?: Promise<void>;

  constructor(
    private readonly deps: {
      collections: UsageCollections;
      requests: Pick<RequestStore, 'userMonths' | 'keyMonths'>;
      /** The time limit of each read (maxTimeMS). */
      queryTimeoutMs: number;
    },
  ) {}

  /** Brings the top lists up to date with the calls stored so far; a refresh under way is shared, not repeated. */
  refresh(now?: Date): Promise<void> {
    if (this.inFlight) return this.inFlight;
    const run = this.run(now ?? new Date()).finally(() => {
      if (this.inFlight === run) this.inFlight = undefined;
    });
    this.inFlight = run;
    return run;
  }

  /** The month's totals and top lists as stored. */
  async read(
    month: string,
    limits: ReadLimits,
  ): Promise<{ totals: Doc | undefined; people: PersonEntry[]; keys: KeyEntry[]; updatedAt: Date | null }> {
    const docs = await findByIds(this.deps.collections.leaders, [totalsId(month), leadersId(month)], limits);
    const totals = docs.find((d) => d._id === totalsId(month));
    const leaders = docs.find((d) => d._id === leadersId(month)) as LeadersDoc | undefined;
    return {
      totals,
      people: leaders?.people ?? [],
      keys: leaders?.keys ?? [],
      updatedAt: leaders?.updatedAt ?? null,
    };
  }

  /** Retention: activity records after ACTIVITY_KEPT_MS, months' totals and lists before `cutMonth`. */
  async deleteOlderThan(cutMonth: string, now = new Date()): Promise<number> {
    const { activity, leaders } = this.deps.collections;
    const [minutes, months] = await Promise.all([
      activity.deleteMany({ at: { $lt: new Date(now.getTime() - ACTIVITY_KEPT_MS) } }),
      leaders.deleteMany({ month: { $lt: cutMonth } }),
    ]);
    return minutes.deletedCount + months.deletedCount;
  }

  private async run(now: Date): Promise<void> {
    const limits = { maxTimeMS: this.deps.queryTimeoutMs };
    const end = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
    const start = Math.floor(Math.max(this.cursor - OVERLAP_MS, now.getTime() - ACTIVITY_KEPT_MS) / MINUTE_MS);
    const ids: string[] = [];
    for (let minute = start * MINUTE_MS; minute <= end; minute += MINUTE_MS) ids.push(activityId(minuteOf(minute)));
    const activity = await findByIds(this.deps.collections.activity, ids, limits);

    const months = new Map<string, { people: Set<string>; keys: Map<string, { callerId: string; keyId: string }> }>();
    for (const doc of activity) {
      for (const [month, entries] of Object.entries(
        (doc.m ?? {}) as Record<string, { p?: Record<string, number>; k?: Record<string, number> }>,
      )) {
        let dirty = months.get(month);
        if (!dirty) months.set(month, (dirty = { people: new Set(), keys: new Map() }));
        for (const caller of Object.keys(entries.p ?? {})) {
          const id = fromFieldKey(caller);
          if (id) dirty.people.add(id);
        }
        for (const entry of Object.keys(entries.k ?? {})) {
          const key = fromKeyEntry(entry);
          if (key) dirty.keys.set(`${key.callerId}\0${key.keyId}`, key);
        }
      }
    }
    for (const [month, dirty] of months) await this.update(month, dirty.people, [...dirty.keys.values()], now);
    this.cursor = now.getTime();
  }

  /** Reads the month figures of the people and keys that called, and merges them into the month's lists. */
  private async update(
    month: string,
    people: Set<string>,
    keys: Array<{ callerId: string; keyId: string }>,
    now: Date,
  ): Promise<void> {
    const { requests, collections } = this.deps;
    const limits = { maxTimeMS: this.deps.queryTimeoutMs };
    const freshPeople: PersonEntry[] = await mapLimited([...people], async (id) => ({
      id,
      kind: id.startsWith(TEAM_PRINCIPAL_PREFIX) ? ('team' as const) : ('person' as const),
      ...figuresOf((await requests.userMonths(id, [month], limits))[0]),
    }));
    const freshKeys: KeyEntry[] = await mapLimited(keys, async ({ callerId, keyId }) => {
      const { calls, clientErrors, serverErrors } = figuresOf(
        (await requests.keyMonths(callerId, keyId, [month], limits))[0],
      );
      return { keyId, callerId, calls, clientErrors, serverErrors };
    });

    const id = leadersId(month);
    for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
      const stored = (await collections.leaders.findOne({ _id: id }, limits)) as LeadersDoc | null;
      const lists = {
        people: top(stored?.people ?? [], freshPeople, (p) => p.id),
        keys: top(stored?.keys ?? [], freshKeys, (k) => `${k.callerId}\0${k.keyId}`),
        updatedAt: now,
      };
      if (!stored) {
        try {
          await collections.leaders.insertOne({ _id: id, kind: 'leaders', month, ...lists, v: 1 });
          return;
        } catch (err) {
          if ((err as { code?: unknown }).code !== 11000) throw err;
          continue; // another replica wrote it first: merge into theirs
        }
      }
      const written = await collections.leaders.updateOne(
        { _id: id, v: stored.v ?? 0 },
        { $set: lists, $inc: { v: 1 } },
        { maxTimeMS: limits.maxTimeMS },
      );
      if (written.matchedCount === 1) return;
    }
    throw new Error(`the usage leaders of ${month} kept changing while being written`);
  }
}
