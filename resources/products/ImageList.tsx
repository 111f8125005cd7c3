/** A product's images, shown as pictures (the global dialog's image list, the form's previews). */
import { Box } from '@mui/material';
import { useTranslate } from 'react-admin';

export function ImageList({ urls, size = 160 }: { urls: readonly string[]; size?: number }) {
  const translate = useTranslate();
  if (!urls.length) return <span>{translate('resources.products.no_images')}</span>;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: `repeat(auto-fill, minmax(${size}px, 1fr))`, gap: 1 }}>
      {urls.map((url, i) => (
        <Box
          key={url}
          component="img"
          src={url}
          alt={translate('resources.products.image_n', { n: i + 1 })}
          sx={{ width: '100%', aspectRatio: '1', objectFit: 'cover', borderRadius: 1, bgcolor: 'action.hover' }}
        />
      ))}
    </Box>
  );
}
