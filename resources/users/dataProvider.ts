/**
 * Users' own data calls (SPEC §7.2): the list and one user come from the multipart users call with
 * the permission header, `{page}` or `{id}`; searching, saving and the status calls are the generic
 * provider's. Combined with it by react-admin's combineDataProviders (dataProvider/index.ts).
 */
import type { GetManyResult, GetOneResult, Identifier, RaRecord } from 'react-admin';
import type { ResourceProvider } from '../../dataProvider';
import { usersCall } from '../../authProvider/usersCall';

const isRecord = (value: unknown): value is RaRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && (value as RaRecord).id != null;

export const usersProvider: ResourceProvider = ({ api, list, notFound }) => {
  const getOne = async (id: Identifier, signal?: AbortSignal): Promise<RaRecord> => {
    const { detail } = await usersCall(api, { id }, signal);
    if (!isRecord(detail)) throw notFound();
    return detail;
  };
  return {
    // The users call takes the page and its size; sort and filters are not its.
    getList: (resource, params) =>
      list(resource, params, ({ page, per_page }, signal) => usersCall(api, { page: Number(page), per_page: Number(per_page) }, signal)),
    getOne: async (_resource, { id, signal }): Promise<GetOneResult> => ({ data: await getOne(id, signal) }),
    // The users call reads one user by id, and no call of the contract reads several: one call per id.
    getMany: async (_resource, { ids, signal }): Promise<GetManyResult> => ({ data: await Promise.all(ids.map((id) => getOne(id, signal))) }),
  };
};
