import { email, type Validator } from 'react-admin';

/**
 * Required, for the public forms where every field is required: the same message as react-admin's
 * required(), without the asterisk it adds to labels (the fields carry aria-required instead).
 */
export const requiredField: Validator = (value) =>
  value === null || value === undefined || String(value).trim() === '' ? 'ra.validation.required' : undefined;

export const requiredEmail: Validator[] = [requiredField, email()];
