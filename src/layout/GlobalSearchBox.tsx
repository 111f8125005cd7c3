/**
 * The global search's entry (SPEC §5: /search?q=… once the cleaned text has 2 characters), shown
 * only to users who may open a searchable screen. From 600 px up it is the top bar's box, which on a
 * tablet gives up width to the controls after it so that the user menu stays in the window. On a
 * phone the bar has no room for a box: it draws a search button instead, which opens the search
 * page, and the page draws the box itself (SearchForm), focused when it has no search yet.
 */
import { useState, type FormEvent } from 'react';
import { Box, IconButton, InputBase, alpha, type SxProps, type Theme } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { LinkBase, useGetIdentity, useNavigate, useTranslate } from 'react-admin';
import { SEARCH_PATH } from '../../contract';
import { registry } from '../../resources';
import { searchTargets } from '../pages/searchTargets';
import { MAX_SEARCH_LENGTH, cleanSearch, searchText } from '../screens/rules';
import { usePhone } from './usePhone';

const T = 'resources.users.search';

/** A search form: submitting a text long enough opens its results. */
export function SearchForm({ initial = '', autoFocus, sx, inputSx }: { initial?: string; autoFocus?: boolean; sx?: SxProps<Theme>; inputSx?: SxProps<Theme> }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [text, setText] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = searchText(text);
    if (q) navigate(`${SEARCH_PATH}?q=${encodeURIComponent(q)}`);
  };
  return (
    <Box component="form" role="search" onSubmit={submit} sx={[{ display: 'flex', alignItems: 'center', px: 1, borderRadius: 1 }, ...(Array.isArray(sx) ? sx : [sx])]}>
      <SearchIcon fontSize="small" />
      <InputBase
        value={text}
        autoFocus={autoFocus}
        onChange={(e) => setText(cleanSearch(e.target.value))}
        placeholder={translate(`${T}.placeholder`)}
        inputProps={{ 'aria-label': translate(`${T}.label`), maxLength: MAX_SEARCH_LENGTH, type: 'search' }}
        sx={[{ color: 'inherit', ml: 1, flex: '1 1 auto', minWidth: 0 }, ...(Array.isArray(inputSx) ? inputSx : [inputSx])]}
      />
    </Box>
  );
}

const barSx: SxProps<Theme> = (theme) => ({
  flex: '0 1 auto',
  minWidth: 0,
  mx: { sm: 1, md: 2 },
  bgcolor: alpha(theme.palette.common.white, 0.15),
  '&:focus-within': { bgcolor: alpha(theme.palette.common.white, 0.25) },
});

export function GlobalSearchBox() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const phone = usePhone();
  if (!identity || !searchTargets(identity, registry).length) return null;
  if (phone) {
    // Also on the search page, where it starts a new search: the bar does not shift under a finger.
    return (
      <IconButton component={LinkBase} to={SEARCH_PATH} color="inherit" aria-label={translate(`${T}.label`)}>
        <SearchIcon />
      </IconButton>
    );
  }
  return <SearchForm sx={barSx} inputSx={{ width: { sm: 160, md: 240 } }} />;
}
