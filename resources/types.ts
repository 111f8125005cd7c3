/**
 * What a resource file declares: its entity (the contract entry the server and the dataProvider
 * read), its sidebar entries, its screen (in the renderer's vocabulary, src/screens/types.ts), its
 * words and its own data calls.
 */
import type { ResourceProvider } from '../dataProvider';
import type { ScreenResource } from '../src/screens/types';

/**
 * A resource's words in one language, merged into the console's messages (i18n/resourceWords.ts):
 * `menu` is its sidebar label (`menu.<token>`), `menus` its other sidebar entries' labels, `title` its
 * record's name in the server's messages (`server.titles.<title>`), and the rest its screen's labels
 * under `resources.<name>`: `fields` label columns by record path, `inputs` form inputs and Control
 * options, `choices` option values, `placeholders` inputs' placeholders, `filters` the list's filters,
 * `name` the record's name ('Coupon |||| Coupons').
 */
export interface ResourceWords {
  menu?: string;
  /**
   * The labels of its other sidebar entries, by token (`menu.<token>`): its seller variant as the
   * admin list shows it ('My Shops'), its buyer variant, its seller and buyer pages. The seller's own
   * list shows the same words, unless i18n/ words an entry for it (`menu.seller.<token>`, SPEC §2.6's).
   */
  menus?: Readonly<Record<string, string>>;
  title?: string;
  name?: string;
  fields?: Readonly<Record<string, string>>;
  inputs?: Readonly<Record<string, string>>;
  choices?: Readonly<Record<string, string>>;
  placeholders?: Readonly<Record<string, string>>;
  /** The labels of the list's filters (`screen.filters`), by source. */
  filters?: Readonly<Record<string, string>>;
}

export interface ResourceDefinition extends ScreenResource {
  /**
   * Its words in each language of the console, beside the declaration (i18n/ keeps the words the
   * screens share). A unit test fails when a label the screen shows lacks a word in either language.
   */
  words?: { en: ResourceWords; fr: ResourceWords };
  /**
   * Its own data calls, when the generic provider's do not fit (users' multipart list): a factory of
   * the methods it answers differently, combined with the generic provider by react-admin's
   * combineDataProviders. Applied to the admin screen and its variants.
   */
  dataProvider?: ResourceProvider;
}

/** Types a resource file; returns it unchanged. */
export const defineResource = <R extends ResourceDefinition>(definition: R): R => definition;
