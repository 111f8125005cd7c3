/**
 * The one access check of every route behind the sign-in: a resource's screen, its seller variant,
 * a resource's page, the console's own pages. The route's first segment is asked of canAccess (as
 * react-admin's lists do); a refused user goes to Access denied before anything of the screen is
 * drawn or fetched.
 */
import { useDeferredValue, type ReactNode } from 'react';
import { Loading, useBasename, useCanAccess } from 'react-admin';
import { Navigate } from 'react-router-dom';
import { getSession } from '../../authProvider/session';

function Check({ path, children }: { path: string; children: ReactNode }) {
  const basename = useBasename();
  const { canAccess, error, isPending: asking } = useCanAccess({ resource: path.slice(1), action: 'list' });
  // The screen is drawn in a background render once the answer came (React's, worked on in slices), not
  // in the render answering it, which is drawn in one go: a list screen drawn there held a phone (4×
  // slower CPU) for a third of a second. An answer known already (asked before) shows it at once.
  const isPending = useDeferredValue(asking);
  // Signed out under the screen (an ended session): whatever was answered meanwhile is not the
  // user's; the sign-in page follows, then this page again (its answers forgotten at the sign-in).
  if (isPending || !getSession()) return <Loading />;
  // An ended session (401) is the sign-out's to handle: the sign-in page follows, then this page again.
  if (error) return (error as { status?: unknown }).status === 401 ? <Loading /> : <Navigate to={`${basename}/authentication-error`} replace />;
  return canAccess === false ? <Navigate to={`${basename}/access-denied`} replace /> : children;
}

export function RouteGuard({ path, children }: { path: string; children: ReactNode }) {
  // Not signed in: no access is asked (a 'no' would send the user to Access denied).
  if (!getSession()) return <Loading />;
  return <Check path={path}>{children}</Check>;
}
