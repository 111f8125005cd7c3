/**
 * Image column (SPEC §2.11): a 'double click' link; double-clicking it (or Enter or Space, reached
 * with the arrow keys along its row) opens the global dialog with the product's images and 'Add to cart'.
 * A plain button in the cells' link style (`mc-cell-link`): one element per row, not a Material UI link.
 */
import { Stack } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useModalActions } from '../../src/dialog';
import { CELL_FOCUS, isActivation } from '../../src/screens/cells';
import type { CellProps } from '../../src/screens/types';
import { AddToCartButton } from '../orders/AddToCartButton';
import { ImageList } from './ImageList';
import { imageUrls } from './images';

export default function ImagesCell({ record, source }: CellProps) {
  const translate = useTranslate();
  const { openModal } = useModalActions();
  const show = () =>
    openModal('ALERT', {
      title: translate('resources.products.images_title', { name: record.name ?? '' }),
      body: (
        <Stack spacing={2} alignItems="flex-start">
          <ImageList urls={imageUrls(record[source])} size={200} />
          <AddToCartButton product={record} />
        </Stack>
      ),
    });
  return (
    <button
      type="button"
      className="mc-cell-link"
      onClick={(e) => e.stopPropagation()}
      onDoubleClick={(e) => {
        e.stopPropagation();
        show();
      }}
      tabIndex={-1}
      {...{ [CELL_FOCUS]: '' }}
      onKeyDown={(e) => {
        if (isActivation(e.key)) {
          e.preventDefault();
          e.stopPropagation();
          show();
        }
      }}
    >
      {translate('resources.products.double_click')}
    </button>
  );
}
