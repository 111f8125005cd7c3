import { lazy, Suspense, type ComponentType, type ReactElement } from 'react';
import { Loading } from 'react-admin';

/**
 * A screen loaded on first use (React.lazy), with its own Suspense boundary so it can be handed to
 * react-admin anywhere: loginPage, dashboard, catchAll, custom routes or <Resource> screens.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): () => ReactElement {
  const Page = lazy(load);
  function LazyPage() {
    return (
      <Suspense fallback={<Loading />}>
        <Page />
      </Suspense>
    );
  }
  return LazyPage;
}
