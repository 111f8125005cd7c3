/**
 * The words resource files declare beside themselves (`words`, and each format's hint), merged into
 * the console's messages, so a new entity's file carries its own labels in every language; i18n/'s
 * files keep the words the screens share. `missingWords` lists the labels a resource's screen shows
 * that a catalogue lacks (a unit test holds every resource to none, in both languages).
 */
import type { ResourceDefinition } from '../resources/types';

type Tree = { [key: string]: unknown };
export type WordsLocale = 'en' | 'fr';

const isTree = (value: unknown): value is Tree => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `over` merged into `base`, branch by branch (over's leaves win). */
export function deepMerge<T extends Tree>(base: T, over: Tree): T {
  const out: Tree = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = isTree(value) && isTree(out[key]) ? deepMerge(out[key] as Tree, value) : value;
  return out as T;
}

/** The messages the resource files declare in one language: sidebar labels, record names, screen labels, format hints. */
export function wordsOf(resources: readonly ResourceDefinition[], locale: WordsLocale): Tree {
  const menu: Tree = {};
  const titles: Tree = {};
  const screens: Tree = {};
  for (const resource of resources) {
    const { menu: label, menus, title, ...own } = resource.words?.[locale] ?? {};
    if (label && resource.menu) menu[resource.menu.token] = label;
    Object.assign(menu, menus);
    if (title) titles[resource.title] = title;
    const hints = Object.fromEntries(
      Object.entries(resource.api.fields).flatMap(([name, field]) => (field.pattern ? [[name, field.pattern.hint[locale]]] : [])),
    );
    const words: Tree = { ...own, ...(Object.keys(hints).length ? { hints } : {}) };
    if (Object.keys(words).length) screens[resource.name] = words;
  }
  return { menu, server: { titles }, resources: screens };
}

/** A catalogue with the resource files' words merged in. */
export const withWords = <T extends Tree>(base: T, resources: readonly ResourceDefinition[], locale: WordsLocale): T =>
  deepMerge(base, wordsOf(resources, locale));

const has = (catalogue: Tree, key: string): boolean => {
  let node: unknown = catalogue;
  // Keys may hold dots themselves (a column's record path 'status.name'): the rest of the key is tried whole first.
  const parts = key.split('.');
  for (let i = 0; i < parts.length; i++) {
    if (!isTree(node)) return false;
    const rest = parts.slice(i).join('.');
    if (typeof node[rest] === 'string') return true;
    node = node[parts[i]];
  }
  return typeof node === 'string';
};

/**
 * The keys of the labels a resource shows that the catalogue lacks: its sidebar entries (admin, seller
 * and buyer variants, pages), its record's name in the server's messages, its columns, inputs,
 * Control options and their choices, placeholders and format hints.
 */
export function missingWords(resource: ResourceDefinition, catalogue: Tree): string[] {
  const keys: string[] = [];
  const entries = [resource.menu, resource.seller, resource.buyer, ...(resource.sellerPages ?? []), ...(resource.buyerPages ?? [])];
  for (const entry of entries) if (entry) keys.push(`menu.${entry.token}`);
  const base = `resources.${resource.name}`;
  for (const [name, field] of Object.entries(resource.api.fields)) if (field.pattern) keys.push(`${base}.hints.${name}`);
  const screen = resource.screen;
  if (screen?.kind === 'list') {
    for (const column of screen.columns) keys.push(`${base}.fields.${column.source}`);
    for (const field of screen.form?.fields ?? []) {
      if (field.kind === 'location') continue;
      keys.push(`${base}.inputs.${field.source}`);
      if (field.kind === 'select') keys.push(...field.choices.map((c) => `${base}.choices.${c}`));
      if ('placeholder' in field && field.placeholder) keys.push(`${base}.placeholders.${field.source}`);
    }
    for (const filter of screen.filters ?? []) {
      keys.push(`${base}.filters.${filter.source}`, ...filter.choices.map((c) => `${base}.choices.${c}`));
    }
    for (const option of screen.control?.options ?? []) {
      keys.push(`${base}.inputs.${option.source}`, ...option.choices.map((c) => `${base}.choices.${c}`));
    }
  }
  return [...new Set(keys)].filter((key) => !has(catalogue, key));
}
