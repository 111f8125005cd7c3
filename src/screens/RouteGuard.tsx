/**
 * The one access check of every route behind the sign-in: a resource's screen, its seller variant,
 * a resource's page, the console's own pages. The route's first segment is asked of canAccess (as
 * react-admin's lists do); a refused user goes to Access denied before anything of the screen is
 * drawn or fetched.
 */
import type { ReactNode } from 'react';
import { CanAccess, Loading, useBasename } from 'react-admin';
import { Navigate } from 'react-router-dom';

function ToAccessDenied() {
  return <Navigate to={`${useBasename()}/access-denied`} replace />;
}

export function RouteGuard({ path, children }: { path: string; children: ReactNode }) {
  return (
    <CanAccess resource={path.slice(1)} action="list" loading={<Loading />} accessDenied={<ToAccessDenied />}>
      {children}
    </CanAccess>
  );
}
