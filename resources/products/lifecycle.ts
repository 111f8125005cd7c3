/**
 * Products' data hooks (ra-core's lifecycle callbacks): images chosen in the form are uploaded first
 * (POST /upload-image, SPEC §7.5), then the save sends their entries as `image` (SPEC §7.4).
 */
import type { DataProvider, ResourceCallbacks } from 'react-admin';
import { getSession } from '../../authProvider/session';
import type { MarketplaceDataProvider } from '../../dataProvider';
import { imageEntries, imageTag, isPending } from './images';

/** The API base as an absolute address, so stored image URLs work wherever they are read. */
const absolute = (apiUrl: string) =>
  typeof window === 'undefined' ? apiUrl : new URL(apiUrl, window.location.href).href.replace(/\/$/, '');

export const lifecycle = {
  async beforeSave(data: Record<string, unknown>, dataProvider: DataProvider) {
    if (!isPending(data.image)) return data;
    const provider = dataProvider as MarketplaceDataProvider;
    const tag = imageTag(String(data.name ?? ''), getSession()?.id ?? '');
    const files = data.image.pending;
    const extra = data.shop_id ? { shop_id: String(data.shop_id) } : undefined;
    await provider.upload('image', tag, files, extra);
    return { ...data, image: imageEntries(absolute(provider.apiUrl), tag, files.length) };
  },
} satisfies Omit<ResourceCallbacks, 'resource'>;
