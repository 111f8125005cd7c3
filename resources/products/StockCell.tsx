/** In stock (SPEC §2.11): 'Out of Stock' at 0 or less. */
import { useTranslate } from 'react-admin';
import type { CellProps } from '../../src/screens/types';

export default function StockCell({ record, source }: CellProps) {
  const translate = useTranslate();
  const value = record[source];
  if (value === null || value === undefined || value === '') return null;
  return <span style={{ whiteSpace: 'nowrap' }}>{Number(value) > 0 ? String(value) : translate('resources.products.out_of_stock')}</span>;
}
