/** Where code that depends on the time reads it; production passes `systemClock`, tests a `ManualClock`. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock a test moves by hand: `advance(60_000)` is a minute later, at once. */
export class ManualClock implements Clock {
  constructor(private current = Date.UTC(2026, 0, 15, 12, 0, 0)) {}

  now(): number {
    return this.current;
  }

  date(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(at: Date | number): void {
    this.current = typeof at === 'number' ? at : at.getTime();
  }
}
