/**
 * What the sign-in, register and reset forms share that needs no form library: the sign-in page
 * uses these without react-admin's forms, so they stay apart from PasswordInput and validation.
 */
import { Checkbox, FormControlLabel } from '@mui/material';
import { useTranslate } from 'react-admin';

/** slotProps marking an input required for assistive technology. */
export const requiredSlot = { htmlInput: { 'aria-required': true } } as const;

/** The 'Show Password' checkbox (SPEC §2.2, §2.3). */
export function ShowPasswordToggle({ checked, onChange }: { checked: boolean; onChange: (next: boolean) => void }) {
  const translate = useTranslate();
  return (
    <FormControlLabel
      control={<Checkbox size="small" checked={checked} onChange={(event) => onChange(event.target.checked)} />}
      label={translate('auth.show_password')}
      sx={{ mt: 0.5, '& .MuiFormControlLabel-label': { fontSize: 14 } }}
    />
  );
}
