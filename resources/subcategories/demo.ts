/** The demo subcategories: two or one in each demo category. */
import type { DemoBuilder } from '../../contract';

const build: DemoBuilder = async ({ rows }) => {
  const categories = await rows('categories');
  const category = (k: number) => categories[k % categories.length].id;
  return [
    { category_id: category(0), name: 'Shoes', serial: 'FAS-1' },
    { category_id: category(0), name: 'Dresses', serial: 'FAS-2' },
    { category_id: category(1), name: 'Phones', serial: 'ELE-1' },
    { category_id: category(1), name: 'Laptops', serial: 'ELE-2' },
    { category_id: category(2), name: 'Furniture', serial: 'HOM-1' },
  ];
};
export default build;
