/**
 * The parts of a management list (SPEC §2.9): header, search box, count badge, table and pager.
 * Each reads the list from react-admin's ListContext.
 */
import { useState, type KeyboardEvent } from 'react';
import { Box, Button, Chip, CircularProgress, IconButton, InputAdornment, Stack, TextField, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import ClearIcon from '@mui/icons-material/Clear';
import { DataTable, useListContext, usePermissions, useTranslate, type RaRecord } from 'react-admin';
import type { ResourceDeclaration } from '../../resources/types';
import { ErrorView } from '../layout';
import { Cell } from './cells';
import { cleanSearch, pageSpan, pagerItems, searchText } from './rules';

export function ScreenHeader({ seller }: { seller: boolean }) {
  const translate = useTranslate();
  return (
    <Box>
      <Typography variant="h5" component="h1">
        {translate('management.header')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {translate(seller ? 'management.seller' : 'management.admin_only')}
      </Typography>
    </Box>
  );
}

/** Searches the resource's columns (SPEC §5, §9.4): cleaned text of 2 characters or more. */
export function SearchBox() {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  const [text, setText] = useState<string>(typeof filterValues.q === 'string' ? filterValues.q : '');
  const search = () => {
    const q = searchText(text);
    if (q) setFilters({ ...filterValues, q }, {});
  };
  const clear = () => {
    setText('');
    const { q: _dropped, ...rest } = filterValues;
    setFilters(rest, {});
  };
  return (
    <TextField
      size="small"
      sx={{ width: 320 }}
      value={text}
      placeholder={translate('management.search')}
      onChange={(e) => setText(cleanSearch(e.target.value))}
      onKeyDown={(e: KeyboardEvent) => e.key === 'Enter' && search()}
      slotProps={{
        htmlInput: { 'aria-label': translate('management.search') },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              {text && (
                <IconButton size="small" aria-label={translate('management.clear_search')} onClick={clear}>
                  <ClearIcon fontSize="small" />
                </IconButton>
              )}
              <IconButton size="small" aria-label={translate('management.search')} onClick={search}>
                <SearchIcon fontSize="small" />
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/** 'Count: N' for users at permission level 2: sellers and admins (SPEC §2.9). */
export function CountBadge() {
  const translate = useTranslate();
  const { total } = useListContext();
  const { permissions } = usePermissions<{ role: string }>();
  if (total === undefined || !permissions || permissions.role === 'buyer') return null;
  return <Chip color="primary" variant="outlined" label={translate('management.count', { count: total })} />;
}

export function ListTable({ declaration, resource }: { declaration: ResourceDeclaration; resource: string }) {
  const translate = useTranslate();
  const { isPending, error } = useListContext();
  if (error) return <ErrorView />;
  if (isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress aria-label={translate('management.loading')} />
      </Box>
    );
  }
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <DataTable
        rowClick={(id) => `/${resource}/${id}`}
        bulkActionButtons={false}
        empty={<Typography sx={{ p: 2 }}>{translate('management.no_data')}</Typography>}
      >
        {declaration.columns.map((column) => (
          <DataTable.Col
            key={column.source}
            source={column.source}
            label={`resources.${declaration.name}.fields.${column.source}`}
            disableSort={column.source.includes('.') || (column.cell !== undefined && column.cell !== 'status')}
            render={(record) => <Cell record={record as RaRecord} column={column} />}
          />
        ))}
      </DataTable>
    </Box>
  );
}

/** 'Showing {from} to {to} of {total} results', Previous, page buttons, Next (SPEC §2.9). */
export function Pager() {
  const translate = useTranslate();
  const { page, perPage, total, setPage } = useListContext();
  if (!total) return null;
  const { from, to, last } = pageSpan(page, perPage, total);
  return (
    <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" component="nav" aria-label={translate('management.pages')}>
      <Typography variant="body2" sx={{ mr: 2 }}>
        {translate('management.showing', { from, to, total })}
      </Typography>
      <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
        {translate('management.previous')}
      </Button>
      {pagerItems(page, last).map((item, i) =>
        item.kind === 'gap' ? (
          <Typography key={`gap${i}`} component="span">
            {translate('management.ellipsis')}
          </Typography>
        ) : (
          <Button
            key={item.page}
            size="small"
            variant={item.current ? 'contained' : 'outlined'}
            aria-current={item.current ? 'page' : undefined}
            onClick={() => setPage(item.page)}
          >
            {item.page}
          </Button>
        ),
      )}
      <Button size="small" disabled={page >= last} onClick={() => setPage(page + 1)}>
        {translate('management.next')}
      </Button>
    </Stack>
  );
}
