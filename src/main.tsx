import { loadConfig } from './config';

/** Ends the current task, so that the browser may draw and answer a tap before the rest runs. */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/**
 * The console's code runs in stages, each in a task of its own. Run at once, it held a phone's main
 * thread for a third of a second (4× slower CPU), every tap waiting on it; React's renderer, one
 * module, now holds it longest. The stages are this file's import()s: the build asks for all their
 * files with the page (vite.config.ts, `startInStages`), so no stage waits on the network for the
 * one before. The run-time configuration is read meanwhile, so one build can point at any back end.
 */
void (async () => {
  const configLoaded = loadConfig();
  await import('react-dom/client');
  await nextTask();
  await import('./theme');
  await nextTask();
  await import('../resources');
  await nextTask();
  const { preloadLocale } = await import('../i18n');
  const [config] = await Promise.all([configLoaded, preloadLocale()]);
  await nextTask();
  const { start } = await import('./start');
  await start(config);
})();
