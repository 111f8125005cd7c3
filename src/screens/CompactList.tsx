/**
 * A list on a phone (as react-admin's demo does with its SimpleList): instead of a table whose columns
 * run off-screen, each row on two lines with a right-hand side, made of the screen's own columns and
 * cells (its declared `compact` lines, or lines derived from its columns).
 */
import { Fragment, memo, useMemo, type KeyboardEvent } from 'react';
import { Box, Typography, type SxProps, type Theme } from '@mui/material';
import { RecordContextProvider, useListContext, useTranslate, type RaRecord } from 'react-admin';
import type { Column, ListScreen } from './types';
import { Cell, cellText, isActivation } from './cells';

export interface CompactLines {
  primary: readonly Column[];
  secondary: readonly Column[];
  tertiary: readonly Column[];
}

/** The columns of each line: the declared ones, or the first shown column but the id, the next two, and the status. */
export function compactLines(screen: Pick<ListScreen, 'columns' | 'compact'>): CompactLines {
  const { columns, compact } = screen;
  if (compact) {
    const of = (sources: readonly string[] = []) =>
      sources.map((source) => {
        const column = columns.find((c) => c.source === source);
        if (!column) throw new Error(`The compact list names ${source}, which is not a column`);
        return column;
      });
    return { primary: of(compact.primary), secondary: of(compact.secondary), tertiary: of(compact.tertiary) };
  }
  const shown = columns.filter((c) => !c.hidden);
  const plain = shown.filter((c) => c.kind !== 'status' && c.source !== 'id');
  const first = plain.length ? plain : shown.filter((c) => c.kind !== 'status');
  return { primary: first.slice(0, 1), secondary: first.slice(1, 3), tertiary: shown.filter((c) => c.kind === 'status').slice(0, 1) };
}

/** One line: the columns' cells with a value, separated by a middle dot. */
function Line({ record, columns, name }: { record: RaRecord; columns: readonly Column[]; name: string }) {
  const translate = useTranslate();
  const filled = columns.filter((c) => c.kind === 'status' || c.kind === 'custom' || cellText(record, c, translate) !== '');
  return (
    <>
      {filled.map((column, i) => (
        <Fragment key={column.source}>
          {i > 0 && ' · '}
          <Cell record={record} column={column} name={name} />
        </Fragment>
      ))}
    </>
  );
}

/**
 * The rows' look, given once to the list: react-admin's SimpleList's (a button-like row, two lines of
 * text), with the right-hand side in the secondary text's colour, not react-admin's half-transparent
 * one (too faint to read).
 */
const LIST_SX: SxProps<Theme> = {
  listStyle: 'none', m: 0, py: 1, px: 0, bgcolor: 'background.paper', borderRadius: 1,
  '& .compact-row': {
    display: 'flex', alignItems: 'center', px: 2, py: 1, minHeight: 48, cursor: 'pointer', outline: 0,
    '&:hover': { bgcolor: 'action.hover' },
    '&:focus-visible': { bgcolor: 'action.focus' },
    '&[aria-current="true"]': { bgcolor: 'action.selected' },
  },
  '& .compact-text': { flex: '1 1 auto', minWidth: 0, my: '6px' },
  '& .compact-primary': { typography: 'body1', display: 'block' },
  '& .compact-secondary': { typography: 'body2', display: 'block', color: 'text.secondary' },
  '& .compact-tertiary': { float: 'right', color: 'text.secondary', ml: 1 },
};

interface CompactListProps {
  screen: ListScreen;
  name: string;
  open: (record: RaRecord) => void;
  selectedId?: string;
}

/**
 * The rows draw again only when what they show changed, not on every change of the list's state: a
 * list whose first page was fetched ahead asks for it again as it opens (same rows, but the list is
 * "fetching" and then not), and on a phone a second drawing of fifteen rows was one of the longest
 * tasks of opening a list.
 */
export function CompactList(props: CompactListProps) {
  const { data } = useListContext();
  return <CompactRows {...props} data={data} />;
}

/**
 * Each row as a few plain elements styled by the list (LIST_SX), with the screen's own cells:
 * react-admin's SimpleList drew some 25 Material UI components around the cells of each row (a list
 * item, a button base, list item text, typography, each with its style's component): fifteen rows of
 * Products were 616 components, 315 now, in the largest drawing of a list opening on a phone.
 */
const CompactRows = memo(function CompactRows({ screen, name, open, selectedId, data }: CompactListProps & { data?: RaRecord[] }) {
  const translate = useTranslate();
  const lines = useMemo(() => compactLines(screen), [screen]);
  if (!data?.length) return <Typography sx={{ p: 2 }}>{translate('management.no_data')}</Typography>;
  const activate = (event: KeyboardEvent<HTMLDivElement>, record: RaRecord) => {
    if (event.target !== event.currentTarget || !isActivation(event.key)) return;
    event.preventDefault();
    open(record);
  };
  return (
    <Box component="ul" sx={LIST_SX}>
      {data.map((record) => (
        <li key={record.id}>
          <RecordContextProvider value={record}>
            <div
              className="compact-row"
              role="button"
              tabIndex={0}
              aria-current={String(record.id) === selectedId ? 'true' : undefined}
              onClick={() => open(record)}
              onKeyDown={(event) => activate(event, record)}
            >
              <div className="compact-text">
                <span className="compact-primary">
                  {lines.primary.length > 0 && <Line record={record} columns={lines.primary} name={name} />}
                  {lines.tertiary.length > 0 && (
                    <span className="compact-tertiary">
                      <Line record={record} columns={lines.tertiary} name={name} />
                    </span>
                  )}
                </span>
                {lines.secondary.length > 0 && (
                  <span className="compact-secondary">
                    <Line record={record} columns={lines.secondary} name={name} />
                  </span>
                )}
              </div>
            </div>
          </RecordContextProvider>
        </li>
      ))}
    </Box>
  );
});
