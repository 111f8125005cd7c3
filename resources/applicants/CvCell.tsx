/**
 * The CV column (SPEC §2.20): a 'click' link. The download needs the bearer token, so a plain link
 * will not do: the document is fetched and handed to the browser as a file of its own name.
 */
import { useState, type MouseEvent } from 'react';
import { Link } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { getSession } from '../../authProvider/session';
import { useConfig } from '../../src/config';
import type { CellProps } from '../../src/screens/types';
import { cvName, downloadUrl, failureOf } from './download';

export default function CvCell({ record, source, name }: CellProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const { apiUrl } = useConfig();
  const [busy, setBusy] = useState(false);
  const file = cvName(record[source]);
  if (!file) return <span>{translate(`resources.${name}.no_cv`)}</span>;
  const download = async (event: MouseEvent) => {
    // The row's own click (open the record) does not follow.
    event.preventDefault();
    event.stopPropagation();
    if (busy) return;
    setBusy(true);
    try {
      const session = getSession();
      const response = await fetch(downloadUrl(apiUrl, file), {
        headers: session ? { Authorization: `Bearer ${session.token}` } : {},
      });
      if (!response.ok) throw new Error(await failureOf(response));
      const url = URL.createObjectURL(await response.blob());
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = file;
      document.body.appendChild(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Link component="button" type="button" onClick={download} disabled={busy} aria-label={translate(`resources.${name}.download`, { name: file })}>
      {translate(`resources.${name}.click`)}
    </Link>
  );
}
