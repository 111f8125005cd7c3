/**
 * The top bar's search box: opens the global search (/search?q=…) once the cleaned text has 2
 * characters (SPEC §5). Shown only to users who may open a searchable screen, and not on a phone,
 * where the top bar keeps only what fits: not drawn there at all, rather than drawn and hidden. On a
 * tablet it gives up width to the controls after it, so that the user menu stays in the window.
 */
import { useState, type FormEvent } from 'react';
import { Box, InputBase, alpha } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useGetIdentity, useNavigate, useTranslate } from 'react-admin';
import { registry } from '../../resources';
import { searchTargets } from '../pages/searchTargets';
import { cleanSearch, searchText } from '../screens/rules';
import { usePhone } from './usePhone';

export function GlobalSearchBox() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { identity } = useGetIdentity();
  const [text, setText] = useState('');
  const phone = usePhone();
  if (!identity || phone || !searchTargets(identity, registry).length) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = searchText(text);
    if (q) navigate(`/search?q=${encodeURIComponent(q)}`);
  };
  return (
    <Box
      component="form"
      role="search"
      onSubmit={submit}
      sx={(theme) => ({
        display: 'flex',
        flex: '0 1 auto',
        minWidth: 0,
        alignItems: 'center',
        mx: { sm: 1, md: 2 },
        px: 1,
        borderRadius: 1,
        bgcolor: alpha(theme.palette.common.white, 0.15),
        '&:focus-within': { bgcolor: alpha(theme.palette.common.white, 0.25) },
      })}
    >
      <SearchIcon fontSize="small" />
      <InputBase
        value={text}
        onChange={(e) => setText(cleanSearch(e.target.value))}
        placeholder={translate('resources.users.search.placeholder')}
        inputProps={{ 'aria-label': translate('resources.users.search.label'), maxLength: 100, type: 'search' }}
        sx={{ color: 'inherit', ml: 1, flex: '1 1 auto', minWidth: 0, width: { sm: 160, md: 240 } }}
      />
    </Box>
  );
}
