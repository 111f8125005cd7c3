/**
 * Declared resources as react-admin <Resource> props: one lazy generic screen for all of them,
 * and the seller variant from the same declaration.
 */
import { lazy, Suspense } from 'react';
import { Loading, type ResourceProps } from 'react-admin';
import type { ResourceDeclaration } from '../../resources/types';

const Screen = lazy(() => import('./ManagementScreen'));

function screen(declaration: ResourceDeclaration, seller: boolean) {
  return function DeclaredScreen() {
    return (
      <Suspense fallback={<Loading />}>
        <Screen declaration={declaration} seller={seller} />
      </Suspense>
    );
  };
}

export function toResources(declarations: readonly ResourceDeclaration[]): ResourceProps[] {
  return declarations.flatMap((d) => [
    { name: d.name, list: screen(d, false) },
    ...(d.seller ? [{ name: d.seller, list: screen(d, true) }] : []),
  ]);
}
