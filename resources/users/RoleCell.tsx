/** Role (SPEC §2.14): Admin, Seller or Buyer from the abilities (DESIGN D1). */
import { useTranslate } from 'react-admin';
import { roleOf } from '../../contract';
import type { CellProps } from '../../src/screens/types';

export default function RoleCell({ record, source }: CellProps) {
  const translate = useTranslate();
  return <span>{translate(`resources.users.role.${roleOf(record[source])}`)}</span>;
}
