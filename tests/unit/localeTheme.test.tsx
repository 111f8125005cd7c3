// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { CircularProgress } from '@mui/material';
import { AdminContext, memoryStore } from 'react-admin';
import { createI18nProvider, loadFrench } from '../../i18n';
import { LocaleTheme } from '../../src/layout/LocaleTheme';

afterEach(cleanup);

async function spinnerIn(locale: string) {
  const store = memoryStore({ locale });
  render(
    <AdminContext i18nProvider={createI18nProvider()} store={store}>
      <LocaleTheme>
        <CircularProgress />
        <CircularProgress aria-label="Loading the numbers" />
      </LocaleTheme>
    </AdminContext>,
  );
  // The store's language is switched to once its messages are loaded, asynchronously.
  await screen.findByRole('progressbar', { name: locale === 'fr' ? 'Chargement' : 'Loading' });
  return screen.getAllByRole('progressbar').map((el) => el.getAttribute('aria-label'));
}

describe('LocaleTheme', () => {
  it('names every spinner for assistive technology, keeping a name given by its screen', async () => {
    expect(await spinnerIn('en')).toEqual(['Loading', 'Loading the numbers']);
  });

  it('names it in French for a French reader', async () => {
    await loadFrench();
    expect(await spinnerIn('fr')).toEqual(['Chargement', 'Loading the numbers']);
  });
});
