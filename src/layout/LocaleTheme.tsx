/**
 * Material UI's own texts in the viewer's language: the surrounding theme with MUI's French locale
 * merged in when the console speaks French (the autocomplete's 'Open' / 'No options', the
 * pagination's labels…), and every spinner named 'Loading' for assistive technology, react-admin's
 * own included. Wraps the signed-in layout and the public pages; a page outside both wraps itself.
 */
import { useMemo, type ReactNode } from 'react';
import { ThemeProvider, type Theme } from '@mui/material/styles';
import { frFR } from '@mui/material/locale';
import { deepmerge } from '@mui/utils';
import { useLocaleState, useTranslate } from 'react-admin';

export function LocaleTheme({ children }: { children: ReactNode }) {
  const [locale] = useLocaleState();
  const loading = useTranslate()('ra.page.loading');
  const theme = useMemo(() => {
    const own = { MuiCircularProgress: { defaultProps: { 'aria-label': loading } } };
    return (outer: Theme): Theme => ({
      ...outer,
      components: deepmerge(deepmerge(outer.components ?? {}, locale === 'fr' ? (frFR.components ?? {}) : {}), own),
    });
  }, [locale, loading]);
  return <ThemeProvider theme={theme}>{children}</ThemeProvider>;
}

export default LocaleTheme;
