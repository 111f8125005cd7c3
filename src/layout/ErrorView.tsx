import { Box, Button, Typography } from '@mui/material';
import { keyframes } from '@mui/material/styles';
import ReportProblemOutlinedIcon from '@mui/icons-material/ReportProblemOutlined';
import { useTranslate } from 'react-admin';

const pulse = keyframes`
  0% { transform: scale(0.9); opacity: 0.55; }
  70% { transform: scale(1.35); opacity: 0; }
  100% { transform: scale(1.35); opacity: 0; }
`;

const wobble = keyframes`
  0%, 100% { transform: rotate(0deg); }
  20% { transform: rotate(-8deg); }
  40% { transform: rotate(6deg); }
  60% { transform: rotate(-4deg); }
  80% { transform: rotate(2deg); }
`;

export interface ErrorViewProps {
  /** The caught error, when used as react-admin's error component. */
  error?: unknown;
  errorInfo?: unknown;
  /** Given by react-admin at the top level: offers 'Try again'. */
  resetErrorBoundary?: (...args: unknown[]) => void;
  title?: unknown;
}

/**
 * The generic error view (SPEC §2.7): 'An Error occurred' with a small animation. Shown instead of
 * a list whose load failed, and used as react-admin's error component.
 */
export function ErrorView({ error, resetErrorBoundary }: ErrorViewProps) {
  const translate = useTranslate();
  const detail = import.meta.env.DEV && error instanceof Error ? error.message : '';
  return (
    <Box
      role="alert"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        gap: 2,
        py: 6,
        px: 2,
        flex: 1,
      }}
    >
      <Box sx={{ position: 'relative', width: 72, height: 72, display: 'grid', placeItems: 'center' }}>
        <Box
          aria-hidden
          className="error-view-pulse"
          sx={{
            position: 'absolute',
            inset: 0,
            borderRadius: '50%',
            bgcolor: 'error.light',
            animation: `${pulse} 1.8s ease-out infinite`,
            '@media (prefers-reduced-motion: reduce)': { animation: 'none', opacity: 0.2 },
          }}
        />
        <ReportProblemOutlinedIcon
          aria-hidden
          color="error"
          sx={{
            fontSize: 44,
            position: 'relative',
            animation: `${wobble} 1.8s ease-in-out infinite`,
            '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
          }}
        />
      </Box>
      <Typography variant="h5" component="h2" sx={{ fontWeight: 600 }}>
        {translate('error_view.title')}
      </Typography>
      {detail ? (
        <Typography variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace', maxWidth: 560 }}>
          {detail}
        </Typography>
      ) : null}
      {resetErrorBoundary ? (
        <Button variant="outlined" onClick={() => resetErrorBoundary()}>
          {translate('error_view.retry')}
        </Button>
      ) : null}
    </Box>
  );
}
