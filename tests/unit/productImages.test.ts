/** Product image addresses: previews ask for the thumbnail, pictures not yet uploaded are their own preview. */
import { describe, expect, it } from 'vitest';
import { thumbnailUrl } from '../../resources/products/images';

describe('thumbnailUrl', () => {
  it.each([
    ['http://shop.test/api/files/images/Lamp_7_1.png', 'http://shop.test/api/files/images/Lamp_7_1.png?size=thumb'],
    ['/api/files/images/Lamp_7_2.png', '/api/files/images/Lamp_7_2.png?size=thumb'],
    ['https://cdn.test/p.png?v=3', 'https://cdn.test/p.png?v=3&size=thumb'],
    ['/api/files/images/Lamp_7_3.png?size=thumb', '/api/files/images/Lamp_7_3.png?size=thumb'],
    ['blob:http://shop.test/1b2c', 'blob:http://shop.test/1b2c'],
    ['data:image/png;base64,AAAA', 'data:image/png;base64,AAAA'],
  ])('%s → %s', (url, thumb) => {
    expect(thumbnailUrl(url)).toBe(thumb);
  });
});
