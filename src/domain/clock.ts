/** The time source of the domain, so tests can move time instead of sleeping. Epoch milliseconds. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
