// The kit's one retry policy: a step that may succeed later is tried again after a growing pause,
// until it succeeds or its budget of time is spent; no pause runs past the budget. The lock's wait
// for its holder and Windows' transient refusals (windows-retry.ts) both run through it, each with
// its own schedule. Time is the monotonic clock's: a wall clock set back would stretch a budget.
import { sleep } from './sleep.js';

export interface RetryPolicy {
  /** How long tries may go on, from the first. */
  readonly budgetMs: number;
  /** The pause after the first failed try. */
  readonly firstMs: number;
  /** The pause after one of `ms`, before the cap. */
  readonly grow: (ms: number) => number;
  /** No pause is longer. */
  readonly capMs: number;
  /** Each pause times 0.5 + a random fraction, so waiters that met do not retry in step. */
  readonly jitter: boolean;
}

/**
 * Runs `tryOnce` until it gives a value, pausing between tries; undefined once the budget is
 * spent. Every failed try is followed by a pause, however short, so a loop of synchronous calls
 * (the CLI's) still lets a signal handler run.
 */
export async function retry<T>(
  policy: RetryPolicy,
  tryOnce: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const start = performance.now();
  for (let pause = policy.firstMs; ; pause = Math.min(policy.grow(pause), policy.capMs)) {
    const done = await tryOnce();
    if (done !== undefined) return done;
    const left = policy.budgetMs - (performance.now() - start);
    if (left <= 0) return undefined;
    await sleep(Math.min(left, policy.jitter ? pause * (0.5 + Math.random()) : pause));
  }
}
