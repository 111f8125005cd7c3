/**
 * A dropdown of existing values with 'Create New', which switches the field to free text
 * (SPEC §2.30). Picking an option may carry its other fields into the form (a subcategory's serial).
 */
import { useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { MenuItem, TextField } from '@mui/material';
import { FieldTitle, InputHelperText, required, useInput, useTranslate } from 'react-admin';

export interface PickOption {
  value: string;
  /** Other form values set when this option is picked. */
  carry?: Record<string, unknown>;
}

const CREATE_NEW = '\u0000create-new';

export function PickOrTypeInput(props: { source: string; label: string; options: PickOption[]; isRequired?: boolean; loading?: boolean }) {
  const { source, label, options, isRequired, loading } = props;
  const translate = useTranslate();
  const { setValue } = useFormContext();
  const { field, fieldState, id } = useInput({ source, validate: isRequired ? required() : undefined });
  const current = typeof field.value === 'string' ? field.value : '';
  // Until the user switches, a value that is not among the (loaded) options is shown as typed text.
  const [choice, setChoice] = useState<'pick' | 'type' | null>(null);
  const typing = choice ? choice === 'type' : !loading && current !== '' && !options.some((o) => o.value === current);
  const common = {
    id,
    fullWidth: true,
    label: <FieldTitle label={label} source={source} isRequired={isRequired} />,
    error: !!fieldState.error,
    helperText: <InputHelperText error={fieldState.error?.message} />,
    onBlur: field.onBlur,
    slotProps: { htmlInput: { 'aria-required': isRequired } },
  };
  if (typing) {
    return <TextField {...common} value={current} onChange={(e) => field.onChange(e.target.value)} autoFocus />;
  }
  return (
    <TextField
      {...common}
      select
      value={options.some((o) => o.value === current) ? current : ''}
      onChange={(e) => {
        if (e.target.value === CREATE_NEW) {
          setChoice('type');
          field.onChange('');
          // A new value carries nothing of a value picked before (a subcategory's serial).
          const carried = new Set(options.flatMap((o) => Object.keys(o.carry ?? {})));
          for (const key of carried) setValue(key, null, { shouldDirty: true });
          return;
        }
        setChoice('pick');
        const option = options.find((o) => o.value === e.target.value);
        field.onChange(e.target.value);
        for (const [key, value] of Object.entries(option?.carry ?? {})) setValue(key, value, { shouldDirty: true });
      }}
    >
      <MenuItem value={CREATE_NEW}>{translate('management.create_new')}</MenuItem>
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.value}
        </MenuItem>
      ))}
    </TextField>
  );
}
