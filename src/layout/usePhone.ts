import { useMediaQuery, type Theme } from '@mui/material';

/**
 * Whether the screen is a phone's: under Material UI's `sm` breakpoint (600 px), where the sidebar
 * folds into a drawer, lists become compact and the top bar keeps only what fits.
 */
export const usePhone = (): boolean => useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
