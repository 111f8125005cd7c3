import type { ComponentType, ReactElement } from 'react';
import { Loading } from 'react-admin';
import { Loaded } from './screens/loaded';

/**
 * A screen loaded on first use, with its own Suspense boundary so it can be handed to react-admin
 * anywhere: loginPage, dashboard, catchAll, custom routes or <Resource> screens. Once its code has
 * been fetched (see `preload`), it renders without a loading step.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): () => ReactElement {
  function LazyPage() {
    return <Loaded loader={load} props={{}} fallback={<Loading />} />;
  }
  return LazyPage;
}
