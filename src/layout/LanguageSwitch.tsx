/**
 * The language switch (English / Français): lists the i18nProvider's languages and remembers the
 * choice (react-admin's store key 'locale'), as react-admin's LocalesMenuButton does, in both top
 * bars and on any page outside the layout. Its menu is drawn when opened: LocalesMenuButton keeps
 * its menu mounted, hidden, which drew some forty to ninety more components into every page's
 * first load. Under 900 px (phones and tablets) the button shows its icon and caret alone, named as
 * before, and on a phone its icon alone.
 */
import { useState } from 'react';
import { Box, Button, Menu, MenuItem, Tooltip } from '@mui/material';
import LanguageIcon from '@mui/icons-material/Translate';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useLocaleState, useLocales, useTranslate } from 'react-admin';

const MENU_ID = 'language-menu';

export function LanguageSwitch() {
  const translate = useTranslate();
  const languages = useLocales();
  const [locale, setLocale] = useLocaleState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (languages.length < 2) return null;
  const choose = (next: string) => () => {
    setLocale(next);
    setAnchor(null);
  };
  return (
    // No tooltip while the menu is open: it would cover the menu's first language.
    <Tooltip title={anchor ? '' : translate('locale.switch')}>
      <Box
        component="span"
        data-language-switch=""
        sx={{
          flex: '0 0 auto',
          '& .MuiButton-root': { minWidth: 0, textTransform: 'none', whiteSpace: 'nowrap', fontSize: { xs: 0, md: '0.875rem' } },
          '& .MuiButton-startIcon': { mr: { xs: 0, md: 1 } },
          // On a phone the menu's caret gives its width to the page title.
          '& .MuiButton-endIcon': { display: { xs: 'none', sm: 'inherit' } },
        }}
      >
        <Button
          color="inherit"
          variant="text"
          aria-haspopup="menu"
          aria-controls={anchor ? MENU_ID : undefined}
          aria-expanded={anchor ? 'true' : undefined}
          onClick={(event) => setAnchor(event.currentTarget)}
          startIcon={<LanguageIcon />}
          endIcon={<ExpandMoreIcon fontSize="small" />}
        >
          {languages.find((language) => language.locale === locale)?.name ?? locale}
        </Button>
        <Menu id={MENU_ID} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
          {languages.map((language) => (
            <MenuItem key={language.locale} selected={language.locale === locale} onClick={choose(language.locale)}>
              {language.name}
            </MenuItem>
          ))}
        </Menu>
      </Box>
    </Tooltip>
  );
}

export default LanguageSwitch;
