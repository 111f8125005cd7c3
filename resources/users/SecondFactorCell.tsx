/** Whether a user has a second factor (issue 26), on the Users list: its kinds, or 'Off'. */
import { useTranslate } from 'react-admin';
import type { CellProps } from '../../src/screens/types';

export default function SecondFactorCell({ record, source }: CellProps) {
  const translate = useTranslate();
  const kinds = typeof record[source] === 'string' && record[source] ? String(record[source]).split(',').filter((k) => k !== 'recovery') : [];
  if (!kinds.length) return <span>{translate('resources.users.second_factor.off')}</span>;
  return <span>{kinds.map((k) => translate(`resources.users.second_factor.kind_${k}`)).join(', ')}</span>;
}
