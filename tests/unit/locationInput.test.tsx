// @vitest-environment jsdom
/**
 * The location picker (SPEC §2.30, §3.23) in a react-admin form. The directory is an external
 * service (SPEC §7.10), so fetch is stubbed with a tiny directory.
 */
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, Form, Notification, TestMemoryRouter, testDataProvider } from 'react-admin';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18nProvider } from '../../i18n';
import { clearDirectoryCache } from '../../src/widgets/directory';
import { LocationInput, type LocationInputProps } from '../../src/widgets/LocationInput';

const DIRECTORY: Record<string, unknown> = {
  '/directory/countries': [
    { name: 'Ghana', iso2: 'GH', latitude: '8.00000000', longitude: '-2.00000000' },
    { name: 'Nigeria', iso2: 'NG', latitude: '10.00000000', longitude: '8.00000000' },
  ],
  '/directory/countries/NG/states': [
    { name: 'Lagos', iso2: 'LA', latitude: '6.52437930', longitude: '3.37920570' },
    { name: 'Oyo', iso2: 'OY', latitude: '8.15737090', longitude: '3.61465340' },
  ],
  '/directory/countries/NG/states/LA/cities': [{ name: 'Ikeja', latitude: '6.59651000', longitude: '3.34205000' }],
};

let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  clearDirectoryCache();
  fetchMock = vi.fn(async (url: string) => {
    const body = DIRECTORY[url];
    return { ok: body !== undefined, status: body === undefined ? 404 : 200, json: async () => body ?? { error: 'Not found' } } as Response;
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPicker(props: LocationInputProps = {}, record: Record<string, unknown> = { id: 1 }) {
  const onSubmit = vi.fn();
  render(
    <TestMemoryRouter>
      <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
        <Form record={record} onSubmit={onSubmit}>
          <LocationInput {...props} />
          <button type="submit">Submit</button>
        </Form>
        <Notification />
      </AdminContext>
    </TestMemoryRouter>,
  );
  const submitted = async () => {
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    return onSubmit.mock.calls.at(-1)![0] as Record<string, unknown>;
  };
  return { submitted };
}

const optionNames = async () => (await screen.findAllByRole('option')).map((option) => option.textContent);

async function choose(label: string | RegExp, option: string) {
  await userEvent.click(screen.getByLabelText(label));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('location picker', () => {
  it("loads the states of the chosen country with 'Others' first, then its cities, and writes SPEC §3.23 values", async () => {
    const { submitted } = renderPicker({ required: true });
    const country = screen.getByLabelText(/^Country/);
    expect(country).toBeRequired();
    expect(screen.getByLabelText('State')).toBeDisabled();

    await userEvent.type(country, 'Nig');
    await userEvent.click(await screen.findByRole('option', { name: 'Nigeria' }));
    await userEvent.click(screen.getByLabelText('State'));
    await waitFor(async () => expect(await optionNames()).toEqual(['Others', 'Lagos', 'Oyo']));
    await userEvent.click(screen.getByRole('option', { name: 'Lagos' }));
    await userEvent.click(screen.getByLabelText('City'));
    await waitFor(async () => expect(await optionNames()).toEqual(['Others', 'Ikeja']));
    await userEvent.click(screen.getByRole('option', { name: 'Ikeja' }));

    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      '/directory/countries',
      '/directory/countries/NG/states',
      '/directory/countries/NG/states/LA/cities',
    ]);
    const values = await submitted();
    expect(values).toMatchObject({ country: 'Nigeria', state: 'Lagos', city: 'Ikeja' });
    expect(values.country_details).toEqual({ country_code: 'NG', country_name: 'Nigeria', latitude: '10.00000000', longitude: '8.00000000' });
    expect(values.state_details).toEqual({ state_code: 'LA', state_name: 'Lagos', latitude: '6.52437930', longitude: '3.37920570' });
    expect(values.city_details).toEqual({ city_code: '', city_name: 'Ikeja', latitude: '6.59651000', longitude: '3.34205000' });
  });

  it("turns the state into free text on 'Others', and the typed value lands in the form", async () => {
    const { submitted } = renderPicker();
    await choose(/^Country/, 'Nigeria');
    await choose('State', 'Others');

    const state = screen.getByLabelText('State');
    expect(state).not.toHaveAttribute('role', 'combobox');
    expect(state).toHaveFocus();
    await userEvent.type(state, 'Lagos Island');
    // With no state from the list there are no cities to offer: the city is free text too.
    const city = screen.getByLabelText('City');
    expect(city).not.toHaveAttribute('role', 'combobox');
    await userEvent.type(city, 'Victoria Island');

    const values = await submitted();
    expect(values).toMatchObject({ country: 'Nigeria', state: 'Lagos Island', city: 'Victoria Island' });
    expect(values.state_details).toEqual({ state_code: '', state_name: 'Lagos Island', latitude: null, longitude: null });
    expect(values.city_details).toEqual({ city_code: '', city_name: 'Victoria Island', latitude: null, longitude: null });

    // The list comes back on request.
    await userEvent.click(screen.getByRole('button', { name: 'Choose the State from the list' }));
    expect(screen.getByLabelText('State')).toHaveAttribute('role', 'combobox');
  });

  it('switches to free text when a country that is not in the list is typed', async () => {
    const { submitted } = renderPicker({ levels: ['country', 'state'] });
    await userEvent.type(screen.getByLabelText(/^Country/), 'Atlantis');
    await userEvent.tab();

    const state = screen.getByLabelText('State');
    expect(state).not.toHaveAttribute('role', 'combobox');
    expect(screen.queryByLabelText('City')).toBeNull();
    await userEvent.type(state, 'Poseidonia');
    const values = await submitted();
    expect(values).toMatchObject({ country: 'Atlantis', state: 'Poseidonia' });
    expect(values.country_details).toEqual({ country_code: '', country_name: 'Atlantis', latitude: null, longitude: null });
    expect(values).not.toHaveProperty('city');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("starts from the record's address and keeps the levels it is given", async () => {
    const { submitted } = renderPicker({ levels: ['country', 'state'] }, { id: 4, address: { country: 'nigeria', state: { state_name: 'Lagos' }, city: 'Ikeja' } });
    expect(screen.getByLabelText(/^Country/)).toHaveValue('nigeria');
    expect(screen.getByLabelText('State')).toHaveValue('Lagos');
    expect(screen.queryByLabelText('City')).toBeNull();
    // The record's names are looked up to offer the right lists.
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/directory/countries/NG/states', expect.anything()));
    await choose('State', 'Oyo');
    const values = await submitted();
    expect(values.state).toBe('Oyo');
    expect(values.state_details).toEqual({ state_code: 'OY', state_name: 'Oyo', latitude: '8.15737090', longitude: '3.61465340' });
    expect(values).not.toHaveProperty('city_details');
  });

  it('reports picks to onPick instead of the form, and shows a network failure', async () => {
    const onPick = vi.fn();
    renderPicker({ levels: ['country'], onPick });
    await choose(/^Country/, 'Ghana');
    expect(onPick).toHaveBeenLastCalledWith({
      country: 'Ghana', state: '', city: '',
      country_details: { country_code: 'GH', country_name: 'Ghana', latitude: '8.00000000', longitude: '-2.00000000' },
      state_details: null, city_details: null,
    });
    cleanup();

    clearDirectoryCache();
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    renderPicker();
    expect(await screen.findByText('Network Error')).toBeInTheDocument();
    await userEvent.click(screen.getByLabelText(/^Country/));
    expect(within(document.body).queryAllByRole('option')).toHaveLength(0);
  });
});
