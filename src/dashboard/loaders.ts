import type { QueryClient } from '@tanstack/react-query';
import type { DashboardViewer } from '../../contract/dashboard';
import type { Post } from './stats';
import { loadedNow, preload } from '../screens/loaded';
import { loadStats } from './parts';

export { loadCharts, loadStats } from './parts';

/**
 * The first screen after signing in, as loaders: the sign-in page fetches them ahead (App.tsx) and
 * the dashboard renders them from the same promises, without a loading step.
 */
export const loadDashboard = () => import('../pages/DashboardPage');

/**
 * Asks for the dashboard's numbers as soon as the user has signed in, while the layout draws; the
 * dashboard's own query then finds them on the way (same key) instead of asking after it appears.
 */
export async function prefetchStats(queryClient: QueryClient, post: Post, viewer: () => Promise<DashboardViewer>) {
  // Fetched ahead with the rest (App.tsx): then the request leaves now, before the next screen draws.
  const { lastDays, statsQuery } = loadedNow(loadStats) ?? (await preload(loadStats));
  await queryClient.prefetchQuery(statsQuery(post, viewer, lastDays()));
}
