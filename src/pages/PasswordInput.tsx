import { Checkbox, FormControlLabel } from '@mui/material';
import { TextInput, useTranslate, type TextInputProps } from 'react-admin';

/** A password field whose visibility follows the page's 'Show Password' checkbox. */
export function PasswordField({ visible, ...props }: TextInputProps & { visible: boolean }) {
  return <TextInput {...props} type={visible ? 'text' : 'password'} />;
}

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
