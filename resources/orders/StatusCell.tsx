/**
 * The status column of orders: the status {id, name} in the viewer's language, by its id (the six
 * statuses of SPEC §4); a status the console does not know shows its name as the server sent it.
 */
import { useTranslate } from 'react-admin';
import type { CellProps } from '../../src/screens/types';

export default function StatusCell({ record }: CellProps) {
  const translate = useTranslate();
  const status = record.status as { id?: unknown; name?: unknown } | null | undefined;
  const name = status?.name == null ? '' : String(status.name);
  const text = status?.id == null ? name : translate(`resources.orders.choices.${String(status.id)}`, { _: name || String(status.id) });
  return <span title={text}>{text}</span>;
}
