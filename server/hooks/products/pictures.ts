/**
 * Demo product pictures: four views of a coloured box per product, made here (no files shipped),
 * stored as uploads are and linked from the products' `image` entries (SPEC §7.4).
 */
import { imageTag, imageEntries, MAX_IMAGES } from '../../../resources/products/images';
import { now, type DB, type Row } from '../../db';
import { hsl, png } from '../../png';
import { openFileStore, type FileStore, type FileStoreOptions } from '../../storage';

const SIZE = 96;

/** One view of the box: side `view` (1–4) lit from a different corner. */
function picture(hue: number, view: number): Buffer {
  return png(SIZE, SIZE, (x, y) => {
    const inBox = x > 16 && x < 80 && y > 24 && y < 80;
    if (!inBox) return hsl(hue, 0.15, 0.94);
    const light = [x + y, SIZE * 2 - x - y, x + SIZE - y, SIZE - x + y][view - 1] / (SIZE * 2);
    const stripe = (x + y * (view % 2 ? 1 : -1) + SIZE) % 24 < 4;
    return hsl(hue, 0.55, stripe ? 0.3 : 0.35 + light * 0.3);
  });
}

/** Gives these demo products their pictures, owned by their shop's seller. */
export async function demoPictures(db: DB, files: FileStoreOptions, products: readonly Row[]): Promise<void> {
  const store = openFileStore(files);
  try {
    await storeImages(db, store, products.map((product) => Number(product.id)));
  } finally {
    await store.close();
  }
}

async function storeImages(db: DB, store: FileStore, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const products = await db
    .selectFrom('products')
    .innerJoin('shops', 'shops.id', 'products.shop_id')
    .select(['products.id as id', 'products.name as name', 'shops.owner_id as owner_id', 'products.shop_id as shop_id'])
    .where('products.id', 'in', ids)
    .orderBy('products.id')
    .execute();
  for (const [n, product] of products.entries()) {
    const tag = imageTag(String(product.name), Number(product.owner_id));
    const hue = (n * 47) % 360;
    for (let view = 1; view <= MAX_IMAGES; view++) {
      const name = `${tag}_${view}.png`;
      const bytes = picture(hue, view);
      await store.write('images', name, bytes);
      await db
        .insertInto('uploads')
        .values({
          kind: 'image', tag, idx: view, owner_id: product.owner_id, shop_id: product.shop_id, file_name: name,
          content_type: 'image/png', size: bytes.length, uploaded_by: product.owner_id, created_at: now(), attached_at: now(),
        })
        .execute();
    }
    const image = JSON.stringify(imageEntries('/api', tag, MAX_IMAGES));
    await db.updateTable('products').set({ image }).where('id', '=', Number(product.id)).execute();
  }
}
