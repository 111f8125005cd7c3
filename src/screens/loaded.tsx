/**
 * Code loaded on first use: a module's loader (`() => import('./ImagesCell')`) is called once, its
 * promise kept, and its default export rendered, suspending until it has arrived, as React.lazy
 * does, with one difference that matters for speed: a module already loaded (fetched ahead, e.g.
 * while the user fills in the sign-in form) renders at once. React.lazy always suspends on its first
 * render, and React then holds back revealing the boundary's content for up to 300 ms after its
 * fallback showed; the console's first screen went through three such boundaries (layout, dashboard,
 * charts). Here the promise carries its outcome (`status`, `value`), which React's `use` reads
 * without suspending.
 */
import { Suspense, createElement, use, useEffect, useReducer, type ComponentType, type ReactNode } from 'react';
import { CircularProgress } from '@mui/material';

type Module<P> = { default: ComponentType<P> };
type Tracked<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };
const loads = new WeakMap<object, Tracked<unknown>>();

/** Starts the loader's import once and returns its promise, which records its outcome when settled. */
export function preload<T>(loader: () => Promise<T>): Promise<T> {
  let load = loads.get(loader) as Tracked<T> | undefined;
  if (!load) {
    const started: Tracked<T> = loader();
    load = started;
    started.status = 'pending';
    started.then(
      (value) => Object.assign(started, { status: 'fulfilled', value }),
      (reason: unknown) => Object.assign(started, { status: 'rejected', reason }),
    );
    loads.set(loader, load as Tracked<unknown>);
  }
  return load;
}

/** The loader's module when it has already arrived (see `preload`), to use it without waiting a turn. */
export function loadedNow<T>(loader: () => Promise<T>): T | undefined {
  const load = loads.get(loader) as Tracked<T> | undefined;
  return load?.status === 'fulfilled' ? load.value : undefined;
}

/**
 * Whether every loader's module has settled (arrived, or failed: `Loaded` then shows the error),
 * starting those not yet asked for. A list waits on its cells' code this way, so that its rows and
 * their cells show together instead of cells filling in after the rows.
 */
export function useSettled(loaders: readonly (() => Promise<unknown>)[]): boolean {
  const loadsOf = () => loaders.map((loader) => preload(loader) as Tracked<unknown>);
  const settled = loadsOf().every((load) => load.status !== 'pending');
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (settled) return;
    let live = true;
    void Promise.allSettled(loadsOf()).then(() => live && rerender());
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the loaders are a declaration's, fixed for the screen's life
  }, [settled]);
  return settled;
}

/** When the page last loaded itself anew for code that did not arrive (kept for the tab's life). */
const RELOADED_AT = 'console.reloadedForCode';
/** After such a reload, for this long a module that does not arrive shows the error view instead. */
const RELOAD_AT_MOST_EVERY_MS = 60_000;
/** The page's reload for code that did not arrive, once started: the one every screen waits on. */
let reloading: Promise<void> | undefined;

/**
 * A screen's code did not arrive. Most often a new build has been put in place since this page
 * loaded (every build names its files anew, and the files this page names are gone), and only the
 * page loaded anew, at the same address, finds the new build's. So the page reloads itself, when the
 * server answers for the page (offline, it would lose the console for the browser's error page) and
 * at most once a minute, so that a file truly missing shows the error view instead of reloading
 * forever. Settles when the reload has started; fails when the page is not reloaded.
 */
function reloadForNewBuild(): Promise<void> {
  reloading ??= (async () => {
    if (Date.now() - Number(sessionStorage.getItem(RELOADED_AT) ?? 0) < RELOAD_AT_MOST_EVERY_MS) throw new Error('reloaded lately');
    const page = await fetch(location.href, { cache: 'no-store' });
    if (!page.ok) throw new Error(`the page answers ${page.status}`);
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
    location.reload();
  })();
  return reloading;
}

/** What a screen whose code did not arrive waits on: the page's reload, else the failure itself. */
const afterFailure = new WeakMap<object, Promise<never>>();
function missingCode(loader: object, reason: unknown): Promise<never> {
  let outcome = afterFailure.get(loader);
  if (!outcome) {
    outcome = reloadForNewBuild().then(
      () => new Promise<never>(() => {}), // the page is on its way out: keep the spinner until it goes
      () => Promise.reject(reason as Error),
    );
    afterFailure.set(loader, outcome);
  }
  return outcome;
}

function LoadedComponent<P extends object>({ loader, props }: { loader: () => Promise<Module<P>>; props: P }) {
  const load = preload(loader) as Tracked<Module<P>>;
  const arriving: Promise<Module<P>> = load.status === 'rejected' ? missingCode(loader, load.reason) : load;
  const { default: component } = use(arriving);
  return createElement(component, props);
}

/** The loader's component with these props; `fallback` shows while its code is on the way. */
export function Loaded<P extends object>({ loader, props, fallback }: { loader: () => Promise<Module<P>>; props: P; fallback?: ReactNode }) {
  return (
    <Suspense fallback={fallback ?? <CircularProgress size={16} />}>
      <LoadedComponent loader={loader} props={props} />
    </Suspense>
  );
}

/**
 * Starts the loaders' imports while the browser is idle, one per idle moment. Starting an import is
 * itself work on the main thread (a link added for each of its files, some hundred for a list
 * screen): started all at once, a list screen and its cells' code held a phone's main thread for
 * 210-290 ms in one task. Returns a cancel for those not started yet.
 */
export function preloadWhenIdle(loaders: readonly (() => Promise<unknown>)[]): () => void {
  let cancel = () => {};
  const from = (i: number) => {
    if (i < loaders.length) cancel = whenIdle(() => {
      void preload(loaders[i]);
      from(i + 1);
    });
  };
  from(0);
  return () => cancel();
}

/** Runs `work` when the browser is next idle (or after a second where it cannot say); returns a cancel. */
export function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(work, { timeout: 3000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(work, 1000);
  return () => clearTimeout(handle);
}
