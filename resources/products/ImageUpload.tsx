/**
 * The product's upload box (SPEC §2.30, §5, §9.3): up to 4 JPG or PNG images, previewed before the
 * upload, which happens when the product is saved (lifecycle.ts). Needs the product's name first
 * (the upload tag is made of it); Cancel clears the selection.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useController, useWatch } from 'react-hook-form';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import UploadIcon from '@mui/icons-material/CloudUpload';
import { useNotify, useRecordContext, useTranslate } from 'react-admin';
import type { FieldProps } from '../../src/screens/types';
import { ImageList } from './ImageList';
import { MAX_IMAGES, imageUrls, isPending } from './images';

const ACCEPTED = ['image/png', 'image/jpeg'];

export default function ImageUpload({ source }: FieldProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const record = useRecordContext();
  const input = useRef<HTMLInputElement>(null);
  const { field } = useController({ name: source });
  const name = useWatch({ name: 'name' }) as unknown;
  const pending = isPending(field.value) ? field.value.pending : null;
  const previews = useMemo(() => (pending ? pending.map((file) => URL.createObjectURL(file)) : []), [pending]);
  useEffect(() => () => previews.forEach((url) => URL.revokeObjectURL(url)), [previews]);
  const saved = imageUrls(record?.[source]);

  const choose = () => {
    if (typeof name !== 'string' || name.trim() === '') {
      notify('resources.products.upload.no_name', { type: 'warning' });
      return;
    }
    input.current?.click();
  };
  const picked = (files: FileList | null) => {
    const images = Array.from(files ?? []).filter((file) => ACCEPTED.includes(file.type));
    if (files && images.length < files.length) notify('resources.products.upload.wrong_type', { type: 'warning' });
    if (images.length) field.onChange({ pending: images.slice(0, MAX_IMAGES) });
    if (input.current) input.current.value = '';
  };
  const cancel = () => field.onChange(record?.[source] ?? null);

  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      <Stack spacing={1}>
        <Box
          role="button"
          tabIndex={0}
          onClick={choose}
          onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && choose()}
          sx={{ border: 2, borderStyle: 'dashed', borderColor: 'divider', borderRadius: 1, p: 2, textAlign: 'center', cursor: 'pointer' }}
        >
          <UploadIcon color="primary" />
          <Typography>{translate('resources.products.upload.click')}</Typography>
          <Typography variant="caption" color="text.secondary">
            {translate('resources.products.upload.hint')}
          </Typography>
        </Box>
        <input
          ref={input}
          type="file"
          accept={ACCEPTED.join(',')}
          multiple
          hidden
          aria-label={translate('resources.products.upload.click')}
          onChange={(e) => picked(e.target.files)}
        />
        <Typography variant="body2">{translate('resources.products.upload.ensure')}</Typography>
        <ImageList urls={pending ? previews : saved} size={96} thumbnails />
        <Stack direction="row" spacing={2} alignItems="center">
          <Typography variant="body2" aria-live="polite">
            {`${pending?.length ?? 0} / ${MAX_IMAGES}`}
          </Typography>
          {pending && (
            <Button size="small" onClick={cancel}>
              {translate('resources.products.upload.cancel')}
            </Button>
          )}
        </Stack>
      </Stack>
    </Paper>
  );
}
