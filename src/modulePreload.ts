/**
 * The build's module preload helper, in place of Vite's own (vite.config.ts, `slicedModulePreload`).
 * For each dynamic import, the build passes the files that import will need, so that they are asked
 * for at once rather than one level of imports at a time. Vite's helper adds a
 * `<link rel="modulepreload">` for each of them in one go before the import starts, but adding a link
 * is main-thread work (about 1.5 ms each on a phone's 4× slower CPU) and a list screen needs some
 * 130 files. Started from a render (the layout, a list screen), that one go held the main thread
 * 180–250 ms inside the render's task. Here the import itself starts at once, and the links are added
 * in slices of a few milliseconds, with the browser free between two slices to draw or answer a tap.
 */

/** How long one slice may add links for, in milliseconds. */
const SLICE_MS = 8;

/** Files already asked for (a link added here, or in the page as served). */
const asked = new Set<string>();
/** The names the build has passed already, as passed: naming a file (a URL) is most of the helper's own
 * cost, and the screens share most of their files. */
const named = new Set<string>();
const waiting: string[] = [];
let slicing = false;

function addLinks() {
  const started = performance.now();
  do {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = waiting.shift() as string;
    document.head.appendChild(link);
  } while (waiting.length > 0 && performance.now() - started < SLICE_MS);
  if (waiting.length > 0) setTimeout(addLinks, 0);
  else slicing = false;
}

/**
 * Called by the build for `import()`: starts the import, and asks for the files it needs a slice at a
 * time. The files are named from the build's base, or from the importing file (`importerUrl`) when the
 * base is relative, as Vite's helper names them.
 */
export function __vitePreload<T>(baseModule: () => Promise<T>, deps?: string[], importerUrl?: string): Promise<T> {
  if (deps && deps.length > 0) {
    if (asked.size === 0) for (const link of Array.from(document.getElementsByTagName('link'))) asked.add(link.href);
    for (const dep of deps) {
      const name = importerUrl ? `${importerUrl} ${dep}` : dep;
      if (named.has(name)) continue;
      named.add(name);
      const href = importerUrl ? new URL(dep, importerUrl).href : new URL(import.meta.env.BASE_URL + dep, document.baseURI).href;
      if (asked.has(href)) continue;
      asked.add(href);
      waiting.push(href);
    }
    if (waiting.length > 0 && !slicing) {
      slicing = true;
      setTimeout(addLinks, 0);
    }
  }
  return baseModule();
}
