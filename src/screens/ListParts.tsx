/**
 * The parts of a management list (SPEC §2.9): header, search box, count badge, CSV export, table
 * with bulk status actions, and pager. Each reads the list from react-admin's ListContext, or from
 * the part of it that it shows (its filter, sort or pagination context), so that it is not drawn again
 * when only the rows or their loading changed.
 */
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type ComponentType, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { Box, Button, Chip, CircularProgress, IconButton, InputAdornment, TextField, Typography, type TablePaginationProps } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import ClearIcon from '@mui/icons-material/Clear';
import DownloadIcon from '@mui/icons-material/Download';
import {
  CanAccess, Confirm, DataTable, downloadCSV, Pagination, PaginationActions, useDataProvider, useListContext, useListFilterContext,
  useListPaginationContext, useListSortContext, useNotify, usePermissions, useRedirect,
  useRefresh, useTranslate, useUnselectAll, type GetListParams, type Identifier, type PaginationActionsProps, type PaginationProps, type RaRecord,
} from 'react-admin';
import { MAX_PER_PAGE, MAX_SEARCH_ROWS, type EntityContract } from '../../contract';
import type { MarketplaceDataProvider } from '../../dataProvider';
import type { Column, ListScreen, ScreenResource } from './types';
import { useModalActions } from '../dialog';
import { ErrorView } from '../layout';
import { inLanguage, messageOf } from '../pages/messages';
import { Cell, CELL_FOCUS, cellText, isActivation, sortable } from './cells';
import { listQuery } from './listQuery';
import { useSettled, whenIdle } from './loaded';
import { useQueryClient } from '@tanstack/react-query';
import { CompactList } from './CompactList';
import { usePhone } from '../layout/usePhone';
import { cleanSearch, searchProblem, searchText, toCsv } from './rules';

/**
 * SPEC §2.9's header of a management screen, an admin's or a seller's. A buyer's read-only list (their
 * purchases) manages nothing and is shown to no administrator, so it is headed by its own name (`title`).
 */
export function ScreenHeader({ seller, title }: { seller: boolean; title?: string }) {
  const translate = useTranslate();
  if (title !== undefined) {
    return (
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
    );
  }
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

/**
 * Searches the resource's columns (SPEC §5, §9.4): cleaned text of 2 characters or more, on Enter or
 * the search button. Too short or too long a text is not sent, and the box says why.
 */
export function SearchBox() {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListFilterContext();
  const [text, setText] = useState<string>(typeof filterValues.q === 'string' ? filterValues.q : '');
  const [problem, setProblem] = useState<string | null>(null);
  const search = () => {
    const why = searchProblem(text);
    setProblem(why);
    const q = searchText(text);
    if (!why && q) setFilters({ ...filterValues, q }, {});
  };
  const clear = () => {
    setText('');
    setProblem(null);
    const { q: _dropped, ...rest } = filterValues;
    setFilters(rest, {});
  };
  return (
    <TextField
      size="small"
      sx={{ width: { xs: '100%', sm: 320 } }}
      value={text}
      placeholder={translate('management.search')}
      onChange={(e) => {
        setText(cleanSearch(e.target.value));
        setProblem(null);
      }}
      onKeyDown={(e: KeyboardEvent) => e.key === 'Enter' && search()}
      error={!!problem}
      helperText={problem ? translate(problem) : undefined}
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

/**
 * The room of a toolbar's part not yet shown (unseen, out of reach): on a phone the toolbar wraps,
 * and a part appearing pushed the parts after it, and the list below, down a line.
 */
export function Reserved({ children }: { children: ReactNode }) {
  return (
    <Box aria-hidden sx={{ display: 'flex', visibility: 'hidden' }}>
      {children}
    </Box>
  );
}

/** 'Count: N' for users at permission level 2: sellers and admins (SPEC §2.9); its room kept until the total arrives. */
export function CountBadge() {
  const translate = useTranslate();
  const { total } = useListPaginationContext();
  const { permissions } = usePermissions<{ role: string }>();
  if (!permissions || permissions.role === 'buyer') return null;
  const badge = <Chip color="primary" variant="outlined" label={translate('management.count', { count: total ?? 0 })} />;
  return total === undefined ? <Reserved>{badge}</Reserved> : badge;
}

const columnLabel = (name: string, column: Column) => `resources.${name}.fields.${column.source}`;

/**
 * Downloads what is listed as CSV: every row of the filtered or searched list (not only the page),
 * with the table's columns and words.
 */
export function ExportCsvButton({ def, screen }: { def: ScreenResource; screen: ListScreen }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const { resource, filterValues } = useListFilterContext();
  const { sort } = useListSortContext();
  const { total } = useListPaginationContext();
  const [busy, setBusy] = useState(false);
  const exportAll = async () => {
    setBusy(true);
    try {
      const rows: RaRecord[] = [];
      for (let page = 1; rows.length < Math.min(total ?? Infinity, MAX_SEARCH_ROWS); page++) {
        const { data } = await dataProvider.getList(resource, {
          pagination: { page, perPage: MAX_PER_PAGE },
          sort,
          filter: { ...screen.filter, ...filterValues },
        });
        rows.push(...data);
        if (data.length < MAX_PER_PAGE) break;
      }
      const header = screen.columns.map((c) => translate(columnLabel(def.name, c)));
      const body = rows.map((record) => screen.columns.map((c) => cellText(record, c, translate)));
      downloadCSV(toCsv([header, ...body]), resource);
    } catch (error) {
      notify(messageOf(error, translate('management.failed')), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outlined" startIcon={<DownloadIcon />} onClick={exportAll} disabled={busy || !total}>
      {translate('management.export')}
    </Button>
  );
}

/**
 * Activate / deactivate the selected rows at once, for screens with an is_active Control option:
 * one confirmation, one status call per row, one summary notification.
 */
function BulkStatusButtons({ screen, resource, name }: { screen: ListScreen; resource: string; name: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const { selectedIds, data = [] } = useListContext();
  const unselectAll = useUnselectAll(resource);
  const [choice, setChoice] = useState<string | null>(null);
  const option = screen.control?.options.find((o) => o.kind === 'active');
  if (!option) return null;
  const apply = async () => {
    const value = choice!;
    setChoice(null);
    const byId = new Map<Identifier, RaRecord>(data.map((r: RaRecord) => [r.id, r]));
    const results = await Promise.allSettled(
      selectedIds.map((id) => dataProvider.setStatus(resource, { id, data: { [option.source]: value }, previousData: byId.get(id) ?? { id } })),
    );
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    const done = results.length - failed.length;
    if (failed.length) {
      notify(translate('management.bulk_partly', { done, failed: failed.length, reason: inLanguage(translate, messageOf(failed[0].reason, '')) }), { type: 'error' });
    } else {
      notify(translate('management.bulk_done', { count: done }), { type: 'success' });
    }
    unselectAll();
    refresh();
  };
  return (
    <CanAccess resource={resource} action="status">
      {option.choices.map((c) => (
        <Button key={c} size="small" onClick={() => setChoice(c)}>
          {translate(`resources.${name}.choices.${c}`)}
        </Button>
      ))}
      <Confirm
        isOpen={choice !== null}
        title="management.bulk_confirm_title"
        content="management.bulk_confirm_content"
        translateOptions={{ count: selectedIds.length, choice: choice ? translate(`resources.${name}.choices.${choice}`) : '' }}
        onConfirm={apply}
        onClose={() => setChoice(null)}
      />
    </CanAccess>
  );
}

interface TableProps {
  def: ScreenResource;
  screen: ListScreen;
  entity: EntityContract;
  resource: string;
  storeKey: string;
  /** The record open in the panel: its row is highlighted. */
  selectedId?: string;
  /**
   * What follows the rows (the pager), shown with them: shown before them, below the loading
   * indicator, it was pushed down the page as the rows came (a layout shift, on a phone most of all).
   */
  children?: ReactNode;
}

const MOVES: Record<string, [rows: number, cells: number]> = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0] };

/**
 * The arrow keys move between a table's cells (WAI-ARIA's grid keys): each row is one tab stop (its
 * first cell, which opens the row), and every other cell is reached along the row and across rows.
 */
export function moveCellFocus(e: KeyboardEvent<HTMLElement>) {
  const move = MOVES[e.key];
  const target = e.target as HTMLElement;
  if (!move || !target.hasAttribute(CELL_FOCUS)) return;
  const cell = target.closest('td');
  const row = cell?.closest('tr');
  if (!cell || !row?.parentElement) return;
  const cellsOf = (tr: Element) => [...tr.children].filter((td) => td.querySelector(`[${CELL_FOCUS}]`));
  const rows = [...row.parentElement.children];
  const nextRow = rows[rows.indexOf(row) + move[0]];
  const next = nextRow && cellsOf(nextRow)[cellsOf(row).indexOf(cell) + move[1]]?.querySelector<HTMLElement>(`[${CELL_FOCUS}]`);
  if (!next) return;
  e.preventDefault();
  next.focus();
}

/**
 * react-admin's row checkboxes carry their name ('Select this row') on the checkbox's outer span, where
 * assistive technology does not read it: it is moved onto the checkbox input itself.
 */
function useNamedRowCheckboxes(table: RefObject<HTMLElement | null>) {
  useEffect(() => {
    for (const box of table.current?.querySelectorAll<HTMLElement>('.select-item[aria-label]') ?? []) {
      box.querySelector('input')?.setAttribute('aria-label', box.getAttribute('aria-label')!);
      box.removeAttribute('aria-label');
    }
  });
}

export function ListTable({ def, screen, resource, storeKey, selectedId, children }: TableProps) {
  const translate = useTranslate();
  const tableRef = useRef<HTMLDivElement>(null);
  useNamedRowCheckboxes(tableRef);
  const redirect = useRedirect();
  const { openModal } = useModalActions();
  const { isPending, error } = useListContext();
  // The cells' own code (custom columns: an order's status and totals) is fetched with the page, and
  // the rows wait for it: they come with their cells, never filled in later.
  const cellsReady = useSettled(screen.columns.flatMap((c) => (c.kind === 'custom' ? [c.component] : [])));
  // On a phone, a compact list instead of columns running off-screen.
  const phone = usePhone();
  const open = useCallback(
    (record: RaRecord) => {
      screen.onRowClick?.(record, { openModal });
      redirect(`/${resource}/${record.id}`);
    },
    [screen, openModal, redirect, resource],
  );
  const rowClick = useCallback((_id: Identifier, _resource: string, record: RaRecord) => {
    open(record);
    return false as const;
  }, [open]);
  const rowSx = useCallback((record: RaRecord) => (String(record.id) === selectedId ? { bgcolor: 'action.selected' } : {}), [selectedId]);
  // The columns stay the same elements from one render to the next, so react-admin's memoised rows
  // draw again only when their record changed (not when the list merely refetched or selected).
  const columns = useMemo(
    () =>
      screen.columns.map((column, index) => (
        <DataTable.Col
          key={column.source}
          source={column.source}
          label={columnLabel(def.name, column)}
          disableSort={!sortable(column)}
          render={(record: RaRecord) =>
            index === 0 ? (
              // The first cell opens its row from the keyboard (Enter or Space), as a click does.
              <span
                tabIndex={0}
                role="button"
                aria-label={translate('management.open_record', { id: record.id })}
                {...{ [CELL_FOCUS]: '' }}
                onKeyDown={(e) => {
                  if (e.target !== e.currentTarget || !isActivation(e.key)) return;
                  e.preventDefault();
                  open(record);
                }}
              >
                <Cell record={record} column={column} name={def.name} />
              </span>
            ) : (
              <Cell record={record} column={column} name={def.name} focusable />
            )
          }
        />
      )),
    [screen.columns, def.name, translate, open],
  );
  // The rows come in a background render (React's, worked on in slices), the spinner kept until they
  // are drawn: drawn in the render that answers their arrival, they held a phone's main thread with the
  // whole table in one task. A list opened with its page already there shows itself, then its rows.
  const waiting = useDeferredValue(isPending || !cellsReady, true);
  if (error) return <ErrorView />;
  if (waiting) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress aria-label={translate('management.loading')} />
      </Box>
    );
  }
  const hasBulk = screen.control?.options.some((o) => o.kind === 'active') ?? false;
  return (
    <>
      {phone ? (
        <CompactList screen={screen} name={def.name} open={open} selectedId={selectedId} />
      ) : (
        // A screen's default columns fit a 1366 px screen (cells half as wide apart as MUI's, long
        // text cut short); more columns scroll inside the card and the page never grows wider than
        // the window. (Only the table's own wrapper scrolls: the bulk actions bar floats above it.)
        <Box ref={tableRef} sx={{ minWidth: 0, maxWidth: '100%' }} onKeyDown={moveCellFocus}>
          <DataTable
            sx={TABLE_SX}
            storeKey={storeKey}
            hiddenColumns={screen.columns.filter((c) => c.hidden).map((c) => c.source)}
            rowClick={rowClick}
            rowSx={rowSx}
            bulkActionButtons={hasBulk ? <BulkStatusButtons screen={screen} resource={resource} name={def.name} /> : false}
            empty={<Typography sx={{ p: 2 }}>{translate('management.no_data')}</Typography>}
          >
            {columns}
          </DataTable>
        </Box>
      )}
      {children}
    </>
  );
}

const TABLE_SX = { '& .RaDataTable-tableWrapper': { overflowX: 'auto' }, '& .MuiTableCell-root': { px: 1 } } as const;

/**
 * Asks for the next page while the browser is idle once a page is shown, into the query cache under
 * the key react-admin's list reads: turning the page then shows its rows at once, and react-admin
 * still asks the server again behind them (a page fetched ahead is never trusted alone).
 */
export function PrefetchNextPage({ filter }: { filter?: object }) {
  const dataProvider = useDataProvider();
  const queryClient = useQueryClient();
  const { resource, page, perPage, sort, filterValues, total, isPending, isPlaceholderData } = useListContext();
  const next = total !== undefined && page * perPage < total ? page + 1 : undefined;
  const params = JSON.stringify({ filter: { ...filterValues, ...filter }, sort });
  useEffect(() => {
    if (isPending || isPlaceholderData || next === undefined) return;
    const { filter: all, sort: order } = JSON.parse(params) as Pick<GetListParams, 'filter' | 'sort'>;
    return whenIdle(() => void queryClient.prefetchQuery(listQuery(dataProvider, resource, { pagination: { page: next, perPage }, sort: order, filter: all })));
  }, [dataProvider, queryClient, resource, next, perPage, params, isPending, isPlaceholderData]);
  return null;
}

/** MUI's page numbers, with the first and last pages a click away. */
function PageNumbers(props: PaginationActionsProps) {
  return <PaginationActions {...props} showFirstButton showLastButton />;
}

/** react-admin's pagination, which hands its other props to MUI's TablePagination (its own label among them). */
const ListPagination = Pagination as ComponentType<PaginationProps & Pick<TablePaginationProps, 'labelDisplayedRows'>>;

/**
 * 'Showing {from} to {to} of {total} results' (SPEC §2.9) and the page numbers: the first, the last
 * and those around the current one, with first, previous, next and last buttons (react-admin's
 * pagination over MUI's).
 */
export function Pager() {
  const translate = useTranslate();
  const { total } = useListPaginationContext();
  if (!total) return null;
  return (
    <Box component="nav" aria-label={translate('management.pages')}>
      <ListPagination
        rowsPerPageOptions={[]}
        actions={PageNumbers}
        labelDisplayedRows={({ from, to, count }) => translate('management.showing', { from, to, total: count })}
      />
    </Box>
  );
}
