/** The source of time for the domain; tests inject a controllable one instead of sleeping. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to. */
export class ManualClock implements Clock {
  constructor(private current = Date.now()) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/** The widths of the hourly and daily windows (limits, analytics buckets, retention), in ms. */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
