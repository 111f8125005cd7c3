/**
 * The light/dark switch, as react-admin's ToggleThemeButton (same rule, same words, same icons): in
 * the top bar from 600 px up, and on a phone in the user menu instead, where the bar's width goes to
 * the page title (the screen's name, which a phone shows nowhere else).
 */
import { forwardRef } from 'react';
import { ListItemIcon, ListItemText, MenuItem, useMediaQuery } from '@mui/material';
import DarkIcon from '@mui/icons-material/Brightness4';
import LightIcon from '@mui/icons-material/Brightness7';
import { ToggleThemeButton, useTheme, useThemesContext, useTranslate, useUserMenu } from 'react-admin';
import { usePhone } from './usePhone';

/** The top bar's switch, not drawn on a phone. */
export function BarThemeSwitch() {
  return usePhone() ? null : <ToggleThemeButton />;
}

/** The user menu's switch (the menu draws it on a phone only). */
export const ThemeMenuItem = forwardRef<HTMLLIElement>(function ThemeMenuItem(_props, ref) {
  const translate = useTranslate();
  const userMenu = useUserMenu();
  const { darkTheme, defaultTheme } = useThemesContext();
  const prefersDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  const [theme, setTheme] = useTheme(defaultTheme || (prefersDark && darkTheme ? 'dark' : 'light'));
  return (
    <MenuItem
      ref={ref}
      onClick={() => {
        setTheme(theme === 'dark' ? 'light' : 'dark');
        userMenu?.onClose();
      }}
    >
      <ListItemIcon>{theme === 'dark' ? <LightIcon fontSize="small" /> : <DarkIcon fontSize="small" />}</ListItemIcon>
      <ListItemText>{translate('ra.action.toggle_theme')}</ListItemText>
    </MenuItem>
  );
});
