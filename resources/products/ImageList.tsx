/**
 * A product's images, shown as pictures: whole in the global dialog's image list, as thumbnails
 * (`thumbnails`) in the form's previews.
 */
import { Box } from '@mui/material';
import { useTranslate } from 'react-admin';
import { thumbnailUrl } from './images';

export function ImageList({ urls, size = 160, thumbnails = false }: { urls: readonly string[]; size?: number; thumbnails?: boolean }) {
  const translate = useTranslate();
  if (!urls.length) return <span>{translate('resources.products.no_images')}</span>;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: `repeat(auto-fill, minmax(${size}px, 1fr))`, gap: 1 }}>
      {urls.map((url, i) => (
        <Box
          key={url}
          component="img"
          src={thumbnails ? thumbnailUrl(url) : url}
          alt={translate('resources.products.image_n', { n: i + 1 })}
          sx={{ width: '100%', aspectRatio: '1', objectFit: 'cover', borderRadius: 1, bgcolor: 'action.hover' }}
        />
      ))}
    </Box>
  );
}
