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

/**
 * A server text in the viewer's language: the i18nProvider shows a known server answer translated
 * (i18n/server.ts) and any other text as it is. For texts shown outside a notification, which
 * translates by itself.
 */
export const inLanguage = (translate: (key: string, options?: object) => string, text: string): string =>
  text === '' ? text : translate(text, { _: text });

/** The console's authProvider, with register / requestReset / resetPassword. */
export function useMarketplaceAuth(): MarketplaceAuthProvider {
  const provider = useAuthProvider<MarketplaceAuthProvider>();
  if (!provider) throw new Error('The console needs its authProvider');
  return provider;
}
