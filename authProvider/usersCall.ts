/**
 * The users call (SPEC §7.2): a multipart form of `{id}` (one user, the signed-in user's own profile
 * included) or `{page}`, with the permission header. The profile is read through it, and so is the
 * users screen (resources/users/dataProvider.ts).
 */
import { PATHS, USERS_PERMISSION, type Info } from '../contract';
import type { Api } from '../dataProvider/http';

export function usersCall<D = unknown, H = unknown>(
  api: Api,
  fields: Readonly<Record<string, string | number>>,
  signal?: AbortSignal,
): Promise<Info<D, H>> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
  return api.form<D, H>(PATHS.users, form, { headers: { permission: String(USERS_PERMISSION) }, signal });
}
