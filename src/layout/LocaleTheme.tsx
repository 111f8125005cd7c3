/**
 * Material UI's own texts (the autocomplete's 'Open' / 'No options', the pagination's labels…) in
 * the viewer's language: the surrounding theme with MUI's French locale merged in when the console
 * speaks French. Wraps the signed-in layout and the public pages; a page outside both wraps itself.
 */
import type { ReactNode } from 'react';
import { ThemeProvider, type Theme } from '@mui/material/styles';
import { frFR } from '@mui/material/locale';
import { deepmerge } from '@mui/utils';
import { useLocaleState } from 'react-admin';

const french = (outer: Theme): Theme => ({ ...outer, components: deepmerge(outer.components ?? {}, frFR.components ?? {}) });

export function LocaleTheme({ children }: { children: ReactNode }) {
  const [locale] = useLocaleState();
  return locale === 'fr' ? <ThemeProvider theme={french}>{children}</ThemeProvider> : <>{children}</>;
}

export default LocaleTheme;
