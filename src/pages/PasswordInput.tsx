import { TextInput, type TextInputProps } from 'react-admin';

/** A password field whose visibility follows the page's 'Show Password' checkbox. */
export function PasswordField({ visible, ...props }: TextInputProps & { visible: boolean }) {
  return <TextInput {...props} type={visible ? 'text' : 'password'} />;
}
