/**
 * Product images (SPEC §7.4, §7.5, §9.3): the upload tag, the files chosen but not yet uploaded, and
 * the `image` entries a save sends.
 */

/** At most 4 images per product, named {tag}_1..4.png. */
export const MAX_IMAGES = 4;

/** SPEC §7.4: the product name plus the user id, spaces replaced by '_'. */
export const imageTag = (name: string, userId: string | number) => `${name}${userId}`.replace(/ /g, '_');

/** Images chosen in the form, uploaded only when the product is saved. */
export interface PendingImages {
  pending: File[];
}

export const isPending = (value: unknown): value is PendingImages =>
  typeof value === 'object' && value !== null && Array.isArray((value as PendingImages).pending);

export interface ImageEntry {
  id: number | string;
  image: string;
}

/** The image URLs of a product's `image` value (entries, or plain URLs). */
export function imageUrls(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((entry) => (typeof entry === 'string' ? entry : entry && typeof entry === 'object' ? (entry as ImageEntry).image : undefined))
    .filter((url): url is string => typeof url === 'string' && url !== '');
}

/**
 * The small version of a stored image, for previews: the reference server answers `?size=thumb` with
 * a thumbnail; a server without thumbnails ignores the parameter and answers the image itself.
 * Pictures not yet uploaded (blob: and data: addresses) are their own preview.
 */
export function thumbnailUrl(url: string): string {
  if (/^(blob|data):/i.test(url)) return url;
  try {
    const parsed = new URL(url, 'http://relative.invalid');
    parsed.searchParams.set('size', 'thumb');
    return parsed.origin === 'http://relative.invalid' ? `${parsed.pathname}${parsed.search}${parsed.hash}` : parsed.href;
  } catch {
    return url;
  }
}

/** SPEC §7.4: one entry per uploaded image, `{id: random, image: {host}/files/images/{tag}_n.png}`. */
export function imageEntries(host: string, tag: string, count: number): ImageEntry[] {
  return Array.from({ length: Math.min(count, MAX_IMAGES) }, (_, i) => ({
    id: Math.floor(Math.random() * 1e9),
    image: `${host}/files/images/${tag}_${i + 1}.png`,
  }));
}
