/**
 * The dashboard's parts that load after it: its charts and its numbers' code. One loader each, shared
 * by the sign-in page that fetches them ahead (App.tsx, through loaders.ts) and the dashboard that shows
 * them, so a part fetched ahead is found ready.
 */
export const loadCharts = () => import('./Charts');
export const loadStats = () => import('./stats');
