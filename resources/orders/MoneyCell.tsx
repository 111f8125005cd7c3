/**
 * An order's amount column (SPEC §2.12): converted from the order's currency into the viewer's, whose
 * code follows the amount; the original and the rate on hover.
 */
import { Money } from '../../src/currency';
import type { CellProps } from '../../src/screens/types';

export default function MoneyCell({ record, source }: CellProps) {
  const amount = record[source];
  if (amount === null || amount === undefined || amount === '') return null;
  return <Money amount={amount} currency={typeof record.currency === 'string' ? record.currency : 'USD'} withCode />;
}
