/**
 * The ledger's documents (a statement, a payouts batch) need the bearer token, so a plain link will
 * not do: the answer is fetched and handed to the browser as a file, named as the server names it.
 */
import { getSession } from '../../authProvider/session';
import { failureOf } from '../applicants/download';

/** The file name of a Content-Disposition header, or the fallback. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  const name = /filename="?([^";]+)"?/i.exec(disposition ?? '')?.[1];
  return name && /^[\w.-]{1,120}$/.test(name) ? name : fallback;
}

/** Fetches `url` with the session's token and saves the answer; throws the server's message when refused. */
export async function downloadFile(url: string, init: RequestInit, fallback: string): Promise<void> {
  const session = getSession();
  const response = await fetch(url, {
    ...init,
    headers: { ...(init.headers as Record<string, string>), ...(session ? { Authorization: `Bearer ${session.token}` } : {}) },
  });
  if (!response.ok) throw new Error(await failureOf(response));
  const href = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = fileNameOf(response.headers.get('content-disposition'), fallback);
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
