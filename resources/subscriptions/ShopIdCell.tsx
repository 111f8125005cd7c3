/** Shop id (SPEC §2.17): blank when the subscription belongs to no shop (0). */
import type { CellProps } from '../../src/screens/types';

export default function ShopIdCell({ record, source }: CellProps) {
  const value: unknown = record[source];
  return <span>{value === 0 || value === '0' || value == null ? '' : String(value)}</span>;
}
