/**
 * A CV's address (SPEC §7.5 GET /download{filename}): the stored value may be the full address the
 * upload answered, or a path; the file name is its last part.
 */

/** The document's file name, or null when the value names none. */
export function cvName(cv: unknown): string | null {
  if (typeof cv !== 'string') return null;
  const name = cv.trim().split(/[/\\]/).pop() ?? '';
  return /^[A-Za-z0-9_-]{1,120}\.docx$/.test(name) ? name : null;
}

/** GET {host}/download/{name}. */
export const downloadUrl = (apiUrl: string, name: string) => `${apiUrl.replace(/\/$/, '')}/download/${encodeURIComponent(name)}`;

/** The server's message in an error answer (the envelope's `query`), or the status line. */
export async function failureOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { query?: unknown };
    if (typeof body.query === 'string' && body.query) return body.query;
  } catch {
    // Not JSON: fall through.
  }
  return `${response.status} ${response.statusText}`.trim();
}
