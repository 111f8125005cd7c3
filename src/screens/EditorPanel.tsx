/**
 * The editing panel (SPEC §2.9): the form tab ('Add / Edit' or 'Editor') creates or updates the
 * generic payload of SPEC §3.24; the Control tab changes status or deletes. Every answer's `query`
 * is shown as a notification (DESIGN D5) and the list refreshes in place (D4).
 */
import { useState } from 'react';
import { Box, Button, Paper, Stack, Tab, Tabs, Typography } from '@mui/material';
import {
  Form, Loading, RadioButtonGroupInput, RecordContextProvider, SaveButton, useDataProvider, useGetIdentity, useGetOne,
  useNotify, useRedirect, useRefresh, useTranslate, type RaRecord,
} from 'react-admin';
import type { MarketplaceDataProvider } from '../../dataProvider';
import type { ResourceDeclaration } from '../../resources/types';
import { messageOf } from '../pages/messages';
import { StatusDot, isOn } from '../widgets/StatusDot';
import { FieldInput } from './FieldInput';
import { buildPayload, formValues } from './payload';

interface PanelProps {
  declaration: ResourceDeclaration;
  resource: string;
  /** The record shown, or undefined for a new one. */
  id?: string;
}

/** Runs a data call, shows the server's message or error, refreshes the list. */
function useAction() {
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  return async <T,>(call: () => Promise<T>, message: (result: T) => string | undefined): Promise<T | undefined> => {
    try {
      const result = await call();
      notify(message(result) || 'management.done', { type: 'success' });
      refresh();
      return result;
    } catch (error) {
      notify(messageOf(error, translate('management.failed')), { type: 'error' });
      return undefined;
    }
  };
}

function RecordForm({ declaration, resource, record }: { declaration: ResourceDeclaration; resource: string; record?: RaRecord }) {
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const { identity } = useGetIdentity();
  const redirect = useRedirect();
  const act = useAction();
  const fields = declaration.form?.fields ?? [];
  const save = async (values: Record<string, unknown>) => {
    const user = { id: identity?.id ?? '', name: identity?.fullName };
    const data = buildPayload(values, record, user, fields.map((f) => f.source));
    const result = await act(
      () => (record ? dataProvider.update(resource, { id: record.id, data, previousData: record }) : dataProvider.create(resource, { data })),
      (r) => r.meta?.query,
    );
    if (result && !record && result.data.id !== undefined) redirect(`/${resource}/${result.data.id}`);
  };
  return (
    <Form key={record?.id ?? 'new'} record={formValues(record, fields)} onSubmit={save}>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
        {fields.map((field) => (
          <Box key={field.source} sx={{ gridColumn: field.input === 'location' || field.input === 'textarea' ? '1 / -1' : undefined }}>
            <FieldInput field={field} declaration={declaration} />
          </Box>
        ))}
      </Box>
      <SaveButton label="management.save" />
    </Form>
  );
}

function ControlForm({ declaration, resource, record }: { declaration: ResourceDeclaration; resource: string; record: RaRecord }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const redirect = useRedirect();
  const act = useAction();
  const control = declaration.control!;
  // is_active reads as the first choice ('Active') when on, the second otherwise (SPEC §4.3).
  const current = Object.fromEntries(
    control.options.map((o) => [o.source, o.source === 'is_active' ? o.choices[isOn(record.is_active) ? 0 : 1] : record[o.source]]),
  );
  const submit = (values: Record<string, unknown>) =>
    act(() => dataProvider.setStatus(resource, { id: record.id, data: values, previousData: record }), (r) => r.query);
  const remove = async () => {
    const done = await act(() => dataProvider.delete(resource, { id: record.id, previousData: record }), (r) => r.meta?.query);
    if (done) redirect(`/${resource}`);
  };
  return (
    <Form key={`${record.id}-control`} record={current} onSubmit={submit}>
      {control.options.map((o) => (
        <Box key={o.source}>
          <Stack direction="row" spacing={1} alignItems="center">
            <Typography variant="subtitle2">{translate(`resources.${declaration.name}.inputs.${o.source}`)}</Typography>
            {o.source === 'is_active' ? <StatusDot on={isOn(record.is_active)} /> : <Typography variant="body2">({String(record[o.source] ?? '')})</Typography>}
          </Stack>
          <RadioButtonGroupInput
            source={o.source}
            label={false}
            choices={o.choices.map((c) => ({ id: c, name: `resources.${declaration.name}.choices.${c}` }))}
          />
        </Box>
      ))}
      <Stack direction="row" spacing={2}>
        {control.submit !== false && <SaveButton label="management.submit" alwaysEnable icon={<span />} />}
        {control.remove && (
          <Button variant="contained" color="error" onClick={remove}>
            {translate('management.delete')}
          </Button>
        )}
      </Stack>
    </Form>
  );
}

export function EditorPanel({ declaration, resource, id }: PanelProps) {
  const translate = useTranslate();
  const tabs = [declaration.form && 'form', declaration.control && 'control'].filter(Boolean) as ('form' | 'control')[];
  const [tab, setTab] = useState<'form' | 'control'>(tabs[0]);
  const { data: record, isPending, error } = useGetOne(resource, { id: id ?? '' }, { enabled: id !== undefined });
  if (id !== undefined && isPending) return <Loading />;
  if (id !== undefined && error) return <Typography color="error">{messageOf(error, translate('management.failed'))}</Typography>;
  const shown = tabs.includes(tab) ? tab : tabs[0];
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <RecordContextProvider value={record}>
        <Tabs value={shown} onChange={(_e, value) => setTab(value)}>
          {declaration.form && <Tab value="form" label={translate(`management.tab_${declaration.form.tab}`)} />}
          {declaration.control && <Tab value="control" label={translate('management.tab_control')} disabled={!record} />}
        </Tabs>
        <Box sx={{ pt: 2 }}>
          {shown === 'form' && <RecordForm declaration={declaration} resource={resource} record={record} />}
          {shown === 'control' && record && <ControlForm declaration={declaration} resource={resource} record={record} />}
          {shown === 'control' && !record && <Typography>{translate('management.select_record')}</Typography>}
        </Box>
      </RecordContextProvider>
    </Paper>
  );
}
