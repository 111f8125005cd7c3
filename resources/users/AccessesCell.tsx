/** Granted accesses (SPEC §2.14): the tokens an admin holds, comma-separated. */
import { parseAccesses } from '../../contract';
import type { CellProps } from '../types';

export default function AccessesCell({ record, source }: CellProps) {
  return <span>{parseAccesses(record[source]).join(', ')}</span>;
}
