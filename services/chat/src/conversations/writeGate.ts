/** `first`: writes a person is waiting on before their reply can start; `later`: the rest (storing, bookkeeping). */
export type WritePriority = 'first' | 'later';

/**
 * Lets at most `limit` database writes of this process run at once; the others wait here, `first` ones before
 * `later` ones, each in order. The embedded database (FerretDB on SQLite) runs one write at a time, and hundreds of
 * writers waiting inside it back off and sleep (SQLite's busy handler), which wastes most of its time; a short queue
 * in the process keeps it busy instead. Under a burst, new messages get their reply started before earlier replies
 * are stored, so that no one waits past the gateway's timeout for the stream to open.
 */
export class WriteGate {
  private running = 0;
  private readonly waiting: Record<WritePriority, Array<() => void>> = { first: [], later: [] };

  constructor(private readonly limit: number) {}

  async run<T>(write: () => Promise<T>, priority: WritePriority = 'later'): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting[priority].push(resolve));
    else this.running += 1;
    try {
      return await write();
    } finally {
      const next = this.waiting.first.shift() ?? this.waiting.later.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
