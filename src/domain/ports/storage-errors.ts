/**
 * Raised when the database cannot be reached (refused, dropped, shut down, timed out). The HTTP
 * layer answers 503 UNAVAILABLE; the store reconnects by itself once the database is back.
 */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable';
}

/**
 * True when the database refused a write for want of space: SQLite's SQLITE_FULL (the disk, or
 * the file's size limit). The write and its batch rolled back, so nothing was acknowledged, and
 * the same request succeeds once space is freed: the HTTP layer answers it as it answers an
 * unreachable database (503 UNAVAILABLE, retry shortly), not as a failure of the service (500).
 */
export function isStorageFull(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'SQLITE_FULL';
}
