import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

/** What both themes share: shapes, type, and the highlighted sidebar entry in the theme's primary colour. */
function shared(base: RaThemeOptions, accent: string, accentBackground: string): Pick<RaThemeOptions, 'shape' | 'components' | 'typography'> {
  return {
    shape: { borderRadius: 10 },
    components: {
      ...base.components,
      // The current sidebar entry stands out (SPEC §2.6: the clicked item is highlighted).
      RaMenu: {
        styleOverrides: {
          root: { '&.RaMenu-open .RaMenuItemLink-root': { borderRadius: 8, margin: '1px 8px' } },
        },
      },
      RaMenuItemLink: {
        styleOverrides: {
          root: {
            '&.RaMenuItemLink-active': {
              color: accent,
              backgroundColor: accentBackground,
              fontWeight: 600,
              '& .RaMenuItemLink-icon': { color: accent },
            },
          },
        },
      },
    },
    typography: {
      h6: { fontWeight: 400 },
      fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      button: { textTransform: 'none', fontWeight: 600 },
    },
  };
}

/** react-admin's light theme in the console's colours. */
export const theme: RaThemeOptions = {
  ...defaultLightTheme,
  palette: {
    ...defaultLightTheme.palette,
    primary: { light: '#6f74dd', main: '#3949ab', dark: '#00227b', contrastText: '#fff' },
    secondary: { light: '#4ebaaa', main: '#00897b', dark: '#005b4f', contrastText: '#fff' },
    background: { default: '#f5f6fa', paper: '#fff' },
    // Text on coloured surfaces (chips, buttons) takes black or white, whichever reaches 4.5:1 (WCAG AA).
    contrastThreshold: 4.5,
  },
  ...shared(defaultLightTheme, '#3949ab', 'rgba(57, 73, 171, 0.10)'),
};

/**
 * The dark theme (the top bar's light/dark switch; react-admin remembers the choice): the same
 * indigo and teal, lightened so text and buttons in them keep a contrast of 4.5:1 or more on the
 * dark surfaces; status colours are MUI's dark-mode ones.
 */
export const darkTheme: RaThemeOptions = {
  ...defaultDarkTheme,
  palette: {
    ...defaultDarkTheme.palette,
    mode: 'dark',
    primary: { light: '#c5cae9', main: '#9fa8da', dark: '#7986cb', contrastText: '#0d1033' },
    secondary: { light: '#b2dfdb', main: '#80cbc4', dark: '#4db6ac', contrastText: '#00251a' },
    background: { default: '#121418', paper: '#1e2128' },
    contrastThreshold: 4.5,
  },
  ...shared(defaultDarkTheme, '#c5cae9', 'rgba(159, 168, 218, 0.16)'),
};
