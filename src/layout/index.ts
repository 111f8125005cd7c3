export { ShellLayout } from './ShellLayout';
export { TopBar, PublicTopBar } from './TopBar';
export { SidebarMenu, menuLabelKey } from './SidebarMenu';
export { ShellUserMenu, LogoutMenuItem } from './ShellUserMenu';
export { Brand, LOGO_URL } from './Brand';
export { ErrorView, type ErrorViewProps } from './ErrorView';
export { MENU_ICONS, DEFAULT_MENU_ICON } from './menuIcons';
export { LanguageSwitch } from './LanguageSwitch';
export { LocaleTheme } from './LocaleTheme';
