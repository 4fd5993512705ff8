/**
 * Waits for an observable condition instead of a fixed time: a test that sleeps and then checks
 * passes or fails by the machine's speed, one that waits for what it expects does not. The bound
 * is generous (a loaded CI machine) and only reached when the condition never holds.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { timeoutMs = 20_000, intervalMs = 20, what = 'the condition' } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== null && value !== false) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Settles with the promise's outcome, or rejects after `ms`: for a statement that must not be left
 * waiting on a lock, which would otherwise hang the test until its own timeout.
 */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
