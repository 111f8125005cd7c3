import { useAuthProvider } from 'react-admin';
import type { MarketplaceAuthProvider } from '../../authProvider';

/** The text to show for a failed call: the server's query text (carried as the error message). */
export function messageOf(error: unknown, fallback: string): string {
  if (typeof error === 'string' && error.trim() !== '') return error;
  if (error instanceof Error && error.message) return error.message;
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string' && error.message) {
    return error.message;
  }
  return fallback;
}

/** The console's authProvider, with register / requestReset / resetPassword. */
export function useMarketplaceAuth(): MarketplaceAuthProvider {
  const provider = useAuthProvider<MarketplaceAuthProvider>();
  if (!provider) throw new Error('The console needs its authProvider');
  return provider;
}
