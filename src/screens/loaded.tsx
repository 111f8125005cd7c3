/**
 * Components a resource file names by loader (`() => import('./ImagesCell')`): each loader's module
 * is loaded once (the promise is kept per loader) and its default export rendered, suspending until
 * it has arrived, as React.lazy does.
 */
import { Suspense, createElement, use, type ComponentType } from 'react';
import { CircularProgress } from '@mui/material';
import type { Loader } from '../../resources/types';

type Module = { default: ComponentType<object> };
const modules = new WeakMap<object, Promise<Module>>();

function moduleOf(loader: Loader<never>): Promise<Module> {
  let module = modules.get(loader);
  if (!module) {
    module = (loader as unknown as () => Promise<Module>)();
    modules.set(loader, module);
  }
  return module;
}

function LoadedComponent<P extends object>({ loader, props }: { loader: Loader<P>; props: P }) {
  const { default: component } = use(moduleOf(loader as unknown as Loader<never>));
  return createElement(component, props);
}

export function Loaded<P extends object>({ loader, props }: { loader: Loader<P>; props: P }) {
  return (
    <Suspense fallback={<CircularProgress size={16} />}>
      <LoadedComponent loader={loader} props={props} />
    </Suspense>
  );
}
