/**
 * Keeps the signed-in user's profile current without reloading the page (DESIGN D4): on every
 * navigation the profile is read again, and when an admin has changed the user's role, accesses
 * or name, identity, permissions and canAccess are re-read, so the sidebar and the user menu follow.
 * A session the server has ended (blacklisting, 'sign out everywhere else') signs the user out.
 */
import { useCallback, useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useAuthProvider, useLocation, useLogoutIfAccessDenied } from 'react-admin';
import type { MarketplaceAuthProvider } from '../../authProvider';

/** Reads the profile again now; re-reads identity and permissions when it changed. */
export function useRefreshProfile() {
  const authProvider = useAuthProvider<MarketplaceAuthProvider>();
  const queryClient = useQueryClient();
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  return useCallback(async () => {
    try {
      if (await authProvider?.refreshProfile?.()) await queryClient.invalidateQueries({ queryKey: ['auth'] });
    } catch (error) {
      await logoutIfAccessDenied(error);
    }
  }, [authProvider, queryClient, logoutIfAccessDenied]);
}

export function ProfileWatcher() {
  const { pathname } = useLocation();
  const refreshProfile = useRefreshProfile();
  // The first screen was drawn from a profile read moments ago (signing in, or opening the page):
  // it is read again from the next navigation on.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void refreshProfile();
  }, [pathname, refreshProfile]);
  return null;
}
