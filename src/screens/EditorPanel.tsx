/**
 * The editing panel (SPEC §2.9). Its tabs follow the URL (`/shops/12` the form, `/shops/12/control`,
 * `/users/4/roles`), so a record or a tab can be linked and unsaved edits are guarded when leaving.
 * - The form tab ('Add / Edit' or 'Editor') runs on react-admin's EditBase / CreateBase,
 *   pessimistic, with `transform` building the generic payload of SPEC §3.24 (DESIGN D13).
 * - The Control tab changes status or deletes, behind <CanAccess> and a confirmation naming the record.
 * - Extra tabs are components of the resource's folder (Assign Roles).
 * Every answer's `query` is shown as a notification (DESIGN D5) and the list refreshes in place (D4).
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Box, Button, Paper, Stack, Tab, Tabs, Typography } from '@mui/material';
import SaveIcon from '@mui/icons-material/Save';
import {
  CanAccess, Confirm, CreateBase, EditBase, Form, Loading, RadioButtonGroupInput, SaveButton, useDataProvider,
  useGetIdentity, useGetOne, useGetRecordRepresentation, useNotify, useRedirect, useRefresh, useSaveContext, useTranslate, type RaRecord,
} from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { canCreate, isOn, type EntityContract } from '../../contract';
import { answerOf, type MarketplaceDataProvider } from '../../dataProvider';
import type { ControlOption, Field, ListScreen, ScreenResource } from './types';
import { messageOf } from '../pages/messages';
import { StatusDot } from '../widgets/StatusDot';
import { Cell } from './cells';
import { FieldInput, isWide } from './FieldInput';
import { Loaded, useSettled } from './loaded';
import { formValuesFor, payloadFor } from './payload';

export interface PanelProps {
  def: ScreenResource;
  screen: ListScreen;
  entity: EntityContract;
  /** The console resource (route segment: 'shops' or 'my-shops'). */
  resource: string;
  /** The record shown, or undefined for a new one. */
  id?: string;
  /** The tab in the URL ('' for the first). */
  tab: string;
}

/** Whether the console resource is the definition's seller variant ('my-products' of products). */
const sellerVariant = (def: ScreenResource, resource: string) => !!def.seller && resource === def.seller.path.slice(1);


/** Every form value a field writes: a location picker writes its levels and their details. */
function shownSources(fields: readonly Field[]): string[] {
  return fields.flatMap((f) => {
    if (f.kind !== 'location') return [f.source];
    const levels = f.levels ?? ['country', 'state', 'city'];
    return levels.flatMap((level) => [level, `${level}_details`]);
  });
}

/** Shows the server's message of a mutation, or the error; refreshes the list. */
function useAnswer() {
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  return {
    success: (query: string | undefined) => {
      notify(query || 'management.done', { type: 'success' });
      refresh();
    },
    failure: (error: unknown) => notify(messageOf(error, translate('management.failed')), { type: 'error' }),
  };
}

/** A refresh of the open record (the fuller record after the one the list held, a refresh after a save
 * elsewhere) fills only the fields the user has not changed: ra-core resets every field otherwise, and
 * what is being typed is lost. Module-level: ra-core resets again whenever these options change. */
const KEEP_TYPED = { keepDirtyValues: true } as const;

type Values = Record<string, unknown>;

/** Inside a form: once a save has succeeded, the values it sent become the form's starting point, so
 * nothing saved is left "unsaved" and the next refresh of the record fills those fields again. What
 * was typed while the save was on its way stays unsaved; a failed save leaves the form as typed
 * (react-hook-form counts it as submitted all the same). */
function CleanAfterSave({ saved }: { saved?: Values }) {
  const { reset, getValues, setValue } = useFormContext();
  useEffect(() => {
    if (!saved) return;
    const now = getValues();
    reset(saved);
    for (const [name, value] of Object.entries(now)) {
      if (JSON.stringify(value) !== JSON.stringify(saved[name])) setValue(name, value, { shouldDirty: true });
    }
  }, [saved, reset, getValues, setValue]);
  return null;
}

function FormFields({ fields, name, entity }: { fields: readonly Field[]; name: string; entity: EntityContract }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' }, columnGap: 2 }}>
      {fields.map((field) => (
        <Box key={field.source} sx={{ gridColumn: isWide(field) ? '1 / -1' : undefined, minWidth: 0 }}>
          <FieldInput field={field} name={name} entity={entity} />
        </Box>
      ))}
    </Box>
  );
}

/** Save, asking first when the form holds the value the screen names (a save that cannot be undone); the
 * confirmation's words may name the record's fields (%{customer}) and its label (%{name}). */
function ConfirmingSave({ confirm, record, resource }: { confirm: NonNullable<NonNullable<ListScreen['form']>['confirm']>; record?: RaRecord; resource: string }) {
  const representation = useGetRecordRepresentation(resource);
  const { getValues, handleSubmit } = useFormContext();
  const { save } = useSaveContext();
  const [open, setOpen] = useState(false);
  return (
    <>
      <SaveButton
        label="management.save"
        onClick={(event) => {
          if (getValues(confirm.source) !== confirm.value) return;
          event.preventDefault();
          setOpen(true);
        }}
      />
      <Confirm
        isOpen={open}
        title={confirm.title}
        content={confirm.content}
        translateOptions={{ ...record, name: record ? String(representation(record)) : '' }}
        onConfirm={() => {
          setOpen(false);
          void handleSubmit((values) => save?.(values))();
        }}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

function RecordForm({ def, screen, entity, resource, record }: Omit<PanelProps, 'id' | 'tab'> & { record?: RaRecord }) {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const { identity } = useGetIdentity();
  const answer = useAnswer();
  // The values of the save on its way (transform sees them as the form sent them), and of the last one done.
  const sending = useRef<Values>(undefined);
  const [saved, setSaved] = useState<Values>();
  const form = screen.form!;
  const shown = shownSources(form.fields);
  // The form shows once every field's code has arrived, all its fields together: a field still on its
  // way is not yet part of the form, so a Save pressed meanwhile would neither flag it nor send it.
  const fieldsReady = useSettled(form.fields.flatMap((field) => (field.kind === 'custom' ? [field.component] : [])));
  const transform = (values: Values) => {
    sending.current = values;
    return payloadFor(entity, values, record, { id: identity?.id ?? '', name: identity?.fullName }, shown);
  };
  const body = (
    <Form record={formValuesFor(entity, record, form.fields)} resetOptions={KEEP_TYPED} warnWhenUnsavedChanges noValidate>
      <CleanAfterSave saved={saved} />
      <FormFields fields={form.fields} name={def.name} entity={entity} />
      {form.confirm ? <ConfirmingSave confirm={form.confirm} record={record} resource={resource} /> : <SaveButton label="management.save" />}
    </Form>
  );
  if (!fieldsReady) return <Loading />;
  if (record) {
    return (
      <EditBase
        resource={resource}
        id={record.id}
        mutationMode="pessimistic"
        redirect={false}
        transform={transform}
        queryOptions={{ retry: false }}
        mutationOptions={{
          onSuccess: (data: unknown) => {
            setSaved(sending.current);
            answer.success(answerOf(data));
          },
          onError: answer.failure,
        }}
      >
        {body}
      </EditBase>
    );
  }
  if (!canCreate(entity)) {
    // Update-only screens (SPEC §8): saving with no record selected is refused with the spec's words,
    // whatever the form holds (its required fields are not checked first).
    const forbid = () => notify(translate(form.forbidden ?? 'management.forbidden'), { type: 'error' });
    return (
      <Form record={{}} noValidate onSubmit={forbid}>
        <FormFields fields={form.fields} name={def.name} entity={entity} />
        <Button variant="contained" startIcon={<SaveIcon />} onClick={forbid}>
          {translate('management.save')}
        </Button>
      </Form>
    );
  }
  return (
    <CreateBase
      resource={resource}
      transform={transform}
      mutationOptions={{
        onSuccess: (data: RaRecord) => {
          answer.success(answerOf(data));
          // The new record opens in the panel.
          if (data.id != null) redirect(`/${resource}/${data.id}`);
        },
        onError: answer.failure,
      }}
    >
      {body}
    </CreateBase>
  );
}

/** The value a Control option starts from: is_active as its first choice when on, a linked record by its id. */
function startValue(option: ControlOption, record: RaRecord): unknown {
  if (option.kind === 'active') return option.choices[isOn(record.is_active) ? 0 : 1];
  const value = record[option.source];
  return value && typeof value === 'object' && 'id' in value ? (value as { id: unknown }).id : value;
}

function OptionHeading({ option, record, name }: { option: ControlOption; record: RaRecord; name: string }) {
  const translate = useTranslate();
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <Typography variant="subtitle2">{translate(`resources.${name}.inputs.${option.source}`)}</Typography>
      {option.kind === 'active' ? (
        <StatusDot on={isOn(record.is_active)} />
      ) : (
        <Typography variant="body2">
          ({translate(`resources.${name}.choices.${String(startValue(option, record) ?? '')}`, { _: String(startValue(option, record) ?? '') })})
        </Typography>
      )}
    </Stack>
  );
}

function ControlForm({ def, screen, resource, record }: Omit<PanelProps, 'id' | 'tab' | 'entity'> & { record: RaRecord }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<MarketplaceDataProvider>();
  const redirect = useRedirect();
  const answer = useAnswer();
  const representation = useGetRecordRepresentation(resource);
  const [confirming, setConfirming] = useState(false);
  const [saved, setSaved] = useState<Values>();
  const control = screen.control!;
  const current = Object.fromEntries(control.options.map((o) => [o.source, startValue(o, record)]));
  // Options only an administrator may change (the contract's adminOnly: a product's premier) are not
  // offered on the seller's variant; the record's value is still sent unchanged.
  const options = sellerVariant(def, resource) ? control.options.filter((o) => !def.api.fields[o.source]?.adminOnly) : control.options;
  const submit = async (values: Values) => {
    try {
      const { query } = await dataProvider.setStatus(resource, { id: record.id, data: values, previousData: record });
      setSaved(values);
      answer.success(query);
    } catch (error) {
      answer.failure(error);
    }
  };
  const remove = async () => {
    setConfirming(false);
    try {
      const { data } = await dataProvider.delete(resource, { id: record.id, previousData: record });
      answer.success(answerOf(data));
      redirect(`/${resource}`);
    } catch (error) {
      answer.failure(error);
    }
  };
  return (
    <Form key={`${record.id}-control`} record={current} resetOptions={KEEP_TYPED} onSubmit={submit}>
      <CleanAfterSave saved={saved} />
      {options.map((o) => (
        <Box key={o.source}>
          <OptionHeading option={o} record={record} name={def.name} />
          <RadioButtonGroupInput
            source={o.source}
            label={false}
            choices={o.choices.map((c) => ({ id: c, name: `resources.${def.name}.choices.${c}` }))}
          />
        </Box>
      ))}
      <Stack direction="row" spacing={2}>
        {control.submit !== false && (
          <CanAccess resource={resource} action="status">
            <SaveButton label="management.submit" alwaysEnable icon={<span />} />
          </CanAccess>
        )}
        {control.remove && (
          <CanAccess resource={resource} action="delete">
            <Button variant="contained" color="error" onClick={() => setConfirming(true)}>
              {translate('management.delete')}
            </Button>
          </CanAccess>
        )}
      </Stack>
      <Confirm
        isOpen={confirming}
        title="management.confirm_delete_title"
        content="management.confirm_delete_content"
        translateOptions={{ name: representation(record) }}
        confirm="management.delete"
        confirmColor="warning"
        onConfirm={remove}
        onClose={() => setConfirming(false)}
      />
    </Form>
  );
}

/** A read-only screen (no form, no Control, no tab): the record's columns, each with its label. */
function RecordDetails({ screen, name, record }: { screen: ListScreen; name: string; record: RaRecord }) {
  const translate = useTranslate();
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(120px, max-content) 1fr' }, columnGap: 2, rowGap: 1, m: 0 }}>
      {screen.columns.map((column) => (
        <Box key={column.source} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="subtitle2" color="text.secondary">
            {translate(`resources.${name}.fields.${column.source}`)}
          </Typography>
          <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
            <Cell record={record} column={column} name={name} wrap />
          </Box>
        </Box>
      ))}
    </Box>
  );
}

interface TabEntry {
  id: string;
  label: string;
  needsRecord: boolean;
  render: (record: RaRecord | undefined) => ReactNode;
}

export function EditorPanel(props: PanelProps) {
  const { def, screen, resource, id, tab } = props;
  const translate = useTranslate();
  const representation = useGetRecordRepresentation(resource);
  const redirect = useRedirect();
  const { data: record, isPending, error } = useGetOne(resource, { id: id ?? '' }, { enabled: id !== undefined, retry: false });
  const tabs: TabEntry[] = [
    ...(screen.form
      ? [{ id: '', label: `management.tab_${screen.form.tab}`, needsRecord: false, render: (r: RaRecord | undefined) => <RecordForm {...props} record={r} /> }]
      : []),
    ...(screen.control
      ? [{ id: 'control', label: (sellerVariant(def, resource) && screen.control.sellerLabel) || 'management.tab_control', needsRecord: true, render: (r: RaRecord | undefined) => r && <ControlForm {...props} record={r} /> }]
      : []),
    ...(screen.tabs ?? []).map((t) => ({
      id: t.id,
      label: t.label,
      needsRecord: t.needsRecord ?? false,
      render: (r: RaRecord | undefined) => <Loaded loader={t.component} props={{ record: r, resource, name: def.name }} />,
    })),
  ];
  if (id !== undefined && isPending) return <Loading />;
  if (id !== undefined && error) {
    return (
      <Alert severity="warning" role="alert">
        {translate('management.not_found', { id })}
      </Alert>
    );
  }
  if (tabs.length === 0 && record) {
    tabs.push({ id: '', label: 'management.tab_details', needsRecord: true, render: (r) => r && <RecordDetails screen={screen} name={def.name} record={r} /> });
  }
  const shown = tabs.find((t) => t.id === tab && (record || !t.needsRecord)) ?? tabs.find((t) => record || !t.needsRecord) ?? tabs[0];
  const base = `/${resource}/${id ?? 'create'}`;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label={translate('management.panel')}>
      <Typography variant="h6" component="h2">
        {record ? translate('management.editing', { name: representation(record) }) : translate('management.new_record')}
      </Typography>
      <Tabs value={shown?.id ?? false} onChange={(_e, value: string) => redirect(value ? `${base}/${value}` : base)}>
        {tabs.map((t) => (
          <Tab key={t.id} value={t.id} label={translate(t.label)} disabled={t.needsRecord && !record} />
        ))}
      </Tabs>
      <Box sx={{ pt: 2 }}>{shown ? shown.render(record) : <Typography>{translate('management.select_record')}</Typography>}</Box>
    </Paper>
  );
}
