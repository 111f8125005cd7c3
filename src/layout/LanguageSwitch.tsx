/**
 * The language switch (English / Français): react-admin's LocalesMenuButton, which lists the
 * i18nProvider's languages and remembers the choice (store key 'locale'). Signed-in screens get it
 * from react-admin's own top-bar toolbar; the public pages' top bar places this one, and any other
 * page outside the layout can place it too.
 * Phones (under 600 px) see the icon alone.
 */
import { Box, Tooltip } from '@mui/material';
import { LocalesMenuButton, useTranslate } from 'react-admin';

export function LanguageSwitch() {
  const translate = useTranslate();
  return (
    <Tooltip title={translate('locale.switch')}>
      <Box
        component="span"
        data-language-switch=""
        sx={{
          flex: '0 0 auto',
          '& .MuiButton-root': { minWidth: 0, textTransform: 'none', whiteSpace: 'nowrap', fontSize: { xs: 0, sm: '0.875rem' } },
          '& .MuiButton-startIcon': { mr: { xs: 0, sm: 1 } },
        }}
      >
        <LocalesMenuButton />
      </Box>
    </Tooltip>
  );
}

export default LanguageSwitch;
