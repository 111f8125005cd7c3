import { defaultLightTheme, type RaThemeOptions } from 'react-admin';

/** react-admin's light theme in the console's colours. */
export const theme: RaThemeOptions = {
  ...defaultLightTheme,
  palette: {
    ...defaultLightTheme.palette,
    primary: { light: '#6f74dd', main: '#3949ab', dark: '#00227b', contrastText: '#fff' },
    secondary: { light: '#4ebaaa', main: '#00897b', dark: '#005b4f', contrastText: '#fff' },
    background: { default: '#f5f6fa', paper: '#fff' },
  },
  shape: { borderRadius: 10 },
  components: {
    ...defaultLightTheme.components,
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
            color: '#3949ab',
            backgroundColor: 'rgba(57, 73, 171, 0.10)',
            fontWeight: 600,
            '& .RaMenuItemLink-icon': { color: '#3949ab' },
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
