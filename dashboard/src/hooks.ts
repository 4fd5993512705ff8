import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload: () => void;
  /**
   * Loads again in the background: `loading` stays false and a failure keeps the data shown
   * (with the error), so a periodic refresh never blanks or disables what the operator reads.
   */
  refresh: () => void;
}

/** Runs `load` whenever `deps` change; the newest call wins. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState({ n: 0, quiet: false });
  const latest = useRef(0);
  useEffect(() => {
    const call = ++latest.current;
    const { quiet } = tick;
    if (!quiet) setState((previous) => ({ data: previous.data, loading: true }));
    load().then(
      (data) => call === latest.current && setState({ data, loading: false }),
      (error: Error) =>
        call === latest.current &&
        setState((previous) => ({ data: quiet ? previous.data : undefined, error, loading: false })),
    );
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => ({ n: t.n + 1, quiet: false })), []);
  const refresh = useCallback(() => setTick((t) => ({ n: t.n + 1, quiet: true })), []);
  return { data: state.data, error: state.error, loading: state.loading, reload, refresh };
}

/**
 * Calls `refresh` every `ms` while the tab is visible and `enabled`: none while it is hidden, one
 * at once when it is shown again (what changed meanwhile), then every `ms` again.
 */
export function useAutoRefresh(refresh: () => void, ms: number, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      stop();
      if (document.visibilityState === 'visible') timer = setInterval(refresh, ms);
    };
    const stop = () => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') refresh();
      start();
    };
    start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [refresh, ms, enabled]);
}

/** A value that settles `delay` ms after its last change (the live preview). */
export function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** Wraps an action: `busy` while it runs, its error kept for display. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | undefined>();
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      return true;
    } catch (caught) {
      setError(caught as Error);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(undefined) };
}

/**
 * Cursor paging over a list of the admin API: the cursors of the pages seen so far, so Older
 * follows the answer's nextCursor and Newer goes back to the page before. A change of `filter`
 * starts again at the first page.
 */
export function usePages(filter: unknown[]) {
  const key = JSON.stringify(filter);
  const [state, setState] = useState<{ key: string; cursors: Array<string | undefined> }>({
    key,
    cursors: [undefined],
  });
  // A new filter forgets the pages of the one before (coming back to it starts at page 1 too); this
  // render already reads the first page.
  if (state.key !== key) setState({ key, cursors: [undefined] });
  const cursors = state.key === key ? state.cursors : [undefined];
  return {
    /** The cursor of the page shown (undefined: the first). */
    cursor: cursors[cursors.length - 1],
    /** 1 for the first page. */
    number: cursors.length,
    older: (nextCursor: string) => setState({ key, cursors: [...cursors, nextCursor] }),
    newer: () => setState({ key, cursors: cursors.length > 1 ? cursors.slice(0, -1) : cursors }),
  };
}
