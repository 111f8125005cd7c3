// @vitest-environment jsdom
/**
 * A list on a phone draws its rows again only when what they show changed: not when the list
 * merely asked again for the page it shows (fetching, then not, with the same rows).
 */
import { cleanup, render, screen } from '@testing-library/react';
import { AdminContext, ListContextProvider, ResourceContextProvider, memoryStore, testDataProvider, type ListControllerResult, type RaRecord } from 'react-admin';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { i18nProvider } from '../../i18n';
import { ModalProvider } from '../../src/dialog/ModalProvider';
import { CompactList } from '../../src/screens/CompactList';
import { preload } from '../../src/screens/loaded';
import type { CellProps, ListScreen } from '../../src/screens/types';

afterEach(cleanup);

let drawn = 0;
function CountedName({ record }: CellProps) {
  drawn++;
  return <span>{String(record.name)}</span>;
}
const loadCell = async () => ({ default: CountedName });
const list: ListScreen = { kind: 'list', columns: [{ kind: 'custom', source: 'name', component: loadCell }] };
const open = () => undefined;
// The cell's code is there before the list draws, as the console fetches it ahead.
beforeAll(() => preload(loadCell));

const state = (data: RaRecord[], isFetching: boolean) =>
  ({ data, total: data.length, isPending: false, isFetching, isLoading: false, isPaused: false, isPlaceholderData: false, error: null, resource: 'shops' }) as unknown as ListControllerResult;

const dataProvider = testDataProvider();
const store = memoryStore();

function Page({ value, selectedId }: { value: ListControllerResult; selectedId?: string }) {
  return (
    <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={store}>
      <ModalProvider>
        <ResourceContextProvider value="shops">
          <ListContextProvider value={value}>
            <CompactList screen={list} name="shops" open={open} selectedId={selectedId} />
          </ListContextProvider>
        </ResourceContextProvider>
      </ModalProvider>
    </AdminContext>
  );
}

describe('the compact list (a list on a phone)', () => {
  const rows = [{ id: 1, name: 'Alpha' }, { id: 2, name: 'Beta' }];

  it('does not draw its rows again when the list refetched the same page', async () => {
    const { rerender } = render(<Page value={state(rows, true)} />);
    await screen.findByText('Beta');
    const before = drawn;
    expect(before).toBeGreaterThanOrEqual(2);
    rerender(<Page value={state(rows, false)} />);
    expect(screen.getByText('Alpha')).toBeTruthy();
    expect(drawn).toBe(before);
  });

  it('draws them again when the rows changed, or the selected one', async () => {
    const { rerender } = render(<Page value={state(rows, false)} />);
    await screen.findByText('Beta');
    let before = drawn;
    rerender(<Page value={state([rows[0], { id: 2, name: 'Gamma' }], false)} />);
    await screen.findByText('Gamma');
    expect(drawn).toBeGreaterThan(before);
    before = drawn;
    rerender(<Page value={state([rows[0], { id: 2, name: 'Gamma' }], false)} selectedId="2" />);
    expect(drawn).toBeGreaterThan(before);
  });
});
