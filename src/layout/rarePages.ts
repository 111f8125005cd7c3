/**
 * react-admin's own pages for the cases the console does not restyle (access denied, an
 * authentication callback, an authentication error): loaded only when one is shown.
 */
export { AccessDenied, AuthCallback, AuthenticationError } from 'react-admin';
