// @vitest-environment jsdom
/**
 * What appears when an answer arrives is drawn in a background render: the render that answers the
 * arrival (React's urgent one, drawn in one go) still shows the spinner, and what the answer brings
 * follows in a render React works on in slices, so that a phone is never held for a whole screen or
 * table in one task. So for a list's rows, and for a screen behind the route's access check.
 */
import { Profiler, useLayoutEffect } from 'react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { AdminContext, type AuthProvider, ListContextProvider, ResourceContextProvider, memoryStore, testDataProvider, useListContext, type ListControllerResult, type RaRecord } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import { i18nProvider } from '../../i18n';
import { ModalProvider } from '../../src/dialog/ModalProvider';
import { ListTable } from '../../src/screens/ListParts';
import { RouteGuard } from '../../src/screens/RouteGuard';
import { clearSession, setSession } from '../../authProvider/session';
import type { ListScreen, ScreenResource } from '../../src/screens/types';
import type { EntityContract } from '../../contract';

afterEach(cleanup);

const list: ListScreen = { kind: 'list', columns: [{ kind: 'text', source: 'name' }] };
const def = { name: 'shops', screen: list } as unknown as ScreenResource;
const rows: RaRecord[] = [{ id: 1, name: 'Alpha' }, { id: 2, name: 'Beta' }];

const state = (data: RaRecord[] | undefined) =>
  ({
    data, total: data?.length, isPending: !data, isFetching: !data, isLoading: !data, isPaused: false, isPlaceholderData: false,
    error: null, resource: 'shops', page: 1, perPage: 15, sort: { field: 'id', order: 'DESC' }, filterValues: {}, displayedFilters: {},
    selectedIds: [], setFilters: () => undefined, setPage: () => undefined, setPerPage: () => undefined, setSort: () => undefined,
    onSelect: () => undefined, onToggleItem: () => undefined, onUnselectItems: () => undefined, hideFilter: () => undefined, showFilter: () => undefined,
  }) as unknown as ListControllerResult;

/** What each commit that the list's state reached showed: whether the answer was there, and the rows. */
const seen: { answered: boolean; rows: boolean }[] = [];
function Probe() {
  const { isPending } = useListContext();
  useLayoutEffect(() => {
    seen.push({ answered: !isPending, rows: document.body.textContent?.includes('Alpha') ?? false });
  });
  return null;
}

const dataProvider = testDataProvider();
const store = memoryStore();

function Page({ value }: { value: ListControllerResult }) {
  return (
    <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={store}>
      <ModalProvider>
        <ResourceContextProvider value="shops">
          <ListContextProvider value={value}>
            <ListTable def={def} screen={list} entity={{} as EntityContract} resource="shops" storeKey="shops.table" />
            <Probe />
          </ListContextProvider>
        </ResourceContextProvider>
      </ModalProvider>
    </AdminContext>
  );
}

describe('a list whose answer arrives', () => {
  it('shows the spinner in the arrival\'s own render, then the rows in a render of their own', async () => {
    const { rerender } = render(<Page value={state(undefined)} />);
    expect(screen.getByRole('progressbar')).toBeTruthy();
    seen.length = 0;
    await act(async () => rerender(<Page value={state(rows)} />));
    await screen.findByText('Beta');
    // The first commit with the answer: no rows yet (drawn at once, it would hold them).
    expect(seen[0]).toEqual({ answered: true, rows: false });
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('does so too when it opens with its answer there (a page fetched ahead): the screen first, then the rows', async () => {
    seen.length = 0;
    render(<Page value={state(rows)} />);
    await screen.findByText('Beta');
    expect(seen[0]).toEqual({ answered: true, rows: false });
  });
});

describe('a screen behind the access check', () => {
  it('keeps the screen out of the answer\'s own render, then draws it in a render of its own', async () => {
    let allow: (yes: boolean) => void = () => undefined;
    let asked: () => void = () => undefined;
    const question = new Promise<void>((resolve) => (asked = resolve));
    const authProvider: AuthProvider = {
      login: async () => undefined, logout: async () => undefined, checkAuth: async () => undefined, checkError: async () => undefined,
      getPermissions: async () => undefined,
      canAccess: () => new Promise<boolean>((resolve) => { allow = resolve; asked(); }),
    };
    // Each commit in which the guard drew: whether the screen was in the page then.
    const shown: boolean[] = [];
    const watch = () => void shown.push(document.body.textContent?.includes('The screen') ?? false);
    setSession('token', 1);
    try {
      render(
        <AdminContext dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider} store={store}>
          <Profiler id="guard" onRender={watch}>
            <RouteGuard path="/shops">
              <p>The screen</p>
            </RouteGuard>
          </Profiler>
        </AdminContext>,
      );
      // Waiting on the question, not on the spinner: react-admin shows its spinner after a second only.
      await act(() => question);
      expect(screen.queryByText('The screen')).toBeNull();
      shown.length = 0;
      await act(async () => allow(true));
      await screen.findByText('The screen');
      // The answer's own commit left the spinner; the screen came in a later one.
      expect(shown[0]).toBe(false);
      expect(shown.at(-1)).toBe(true);
    } finally {
      clearSession();
    }
  });
});
