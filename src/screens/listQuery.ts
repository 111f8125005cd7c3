/**
 * A management list's query as react-admin's lists ask it (useGetList's key and answer), so that a
 * page fetched ahead (the first page as the screen opens, the next one while idle) is the one the
 * list then reads from the query cache.
 */
import type { DataProvider, GetListParams, SortPayload } from 'react-admin';

/** Every management list's page size and order (SPEC §2.9: 15 rows, newest first). */
export const LIST_PARAMS = { perPage: 15, sort: { field: 'id', order: 'DESC' } as SortPayload };

export function listQuery(dataProvider: DataProvider, resource: string, { pagination, sort, filter }: Pick<GetListParams, 'pagination' | 'sort' | 'filter'>) {
  return {
    queryKey: [resource, 'getList', { pagination, sort, filter }],
    queryFn: () =>
      dataProvider.getList(resource, { pagination, sort, filter }).then(({ data, total, pageInfo, meta }) => ({ data, total, pageInfo, meta })),
  };
}
