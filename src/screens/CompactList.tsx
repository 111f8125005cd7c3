/**
 * A list on a phone (as react-admin's demo does): instead of a table whose columns run off-screen,
 * react-admin's SimpleList, each row on two lines with a right-hand side, made of the screen's own
 * columns and cells (its declared `compact` lines, or lines derived from its columns).
 */
import { Fragment, memo, useCallback, useMemo } from 'react';
import { Typography } from '@mui/material';
import { ListContextProvider, SimpleList, useListContext, useTranslate, type ListControllerResult, type RaRecord } from 'react-admin';
import type { Column, ListScreen } from './types';
import { Cell, cellText } from './cells';

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

/** The right-hand side in the secondary text's colour, not react-admin's half-transparent one (too faint to read). */
const LIST_SX = { bgcolor: 'background.paper', borderRadius: 1, '& .RaSimpleList-tertiary': { opacity: 1, color: 'text.secondary', ml: 1 } };

interface CompactListProps {
  screen: ListScreen;
  name: string;
  open: (record: RaRecord) => void;
  selectedId?: string;
}

/**
 * The rows draw again only when what they show changed: react-admin's SimpleList, unlike its table,
 * draws every row whenever the list's state changes, and a list whose first page was fetched ahead
 * asks for it again as it opens (same rows, but the list is "fetching" and then not). On a phone
 * that second drawing of fifteen rows was one of the longest tasks of opening a list.
 */
export function CompactList(props: CompactListProps) {
  const { data, total, isPending, isPaused, isPlaceholderData, error, resource } = useListContext();
  const shown = useMemo(
    () => ({ data, total, isPending, isPaused, isPlaceholderData, error, resource }) as ListControllerResult,
    [data, total, isPending, isPaused, isPlaceholderData, error, resource],
  );
  return <CompactRows {...props} shown={shown} />;
}

const CompactRows = memo(function CompactRows({ screen, name, open, selectedId, shown }: CompactListProps & { shown: ListControllerResult }) {
  const translate = useTranslate();
  const text = useMemo(() => {
    const lines = compactLines(screen);
    const line = (columns: readonly Column[]) => (columns.length ? (record: RaRecord) => <Line record={record} columns={columns} name={name} /> : undefined);
    return { primary: line(lines.primary), secondary: line(lines.secondary), tertiary: line(lines.tertiary) };
  }, [screen, name]);
  const rowClick = useCallback((_id: unknown, _resource: unknown, record: RaRecord) => {
    open(record);
    return false as const;
  }, [open]);
  const rowSx = useCallback((record: RaRecord) => (String(record.id) === selectedId ? { bgcolor: 'action.selected' } : {}), [selectedId]);
  return (
    <ListContextProvider value={shown}>
      <SimpleList
        primaryText={text.primary}
        secondaryText={text.secondary}
        tertiaryText={text.tertiary}
        rowClick={rowClick}
        rowSx={rowSx}
        empty={<Typography sx={{ p: 2 }}>{translate('management.no_data')}</Typography>}
        sx={LIST_SX}
      />
    </ListContextProvider>
  );
});
