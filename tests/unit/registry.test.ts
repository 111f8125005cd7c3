/**
 * Every declared resource appears in the sidebar for an admin holding its token and nowhere else;
 * every declaration names a contract entity, and its labels are in i18n.
 */
import { describe, expect, it } from 'vitest';
import { ACCESS, ASSIGNABLE_TOKENS, ENTITIES, entityFor } from '../../contract';
import { menuFor } from '../../authProvider';
import { resources } from '../../resources';
import { en } from '../../i18n/en';

const profile = (abilities: number[], granted: string[]) => ({ abilities: JSON.stringify(abilities), granted_accesses: JSON.stringify(granted) });
const paths = (p: ReturnType<typeof profile>) => menuFor(p).map((e) => e.path);
const admin = (granted: string[]) => profile([1, 2, 3], granted);

describe.each(resources.map((r) => [r.name, r] as const))('resource %s', (name, declaration) => {
  const token = name.toLowerCase();

  it('is the contract entity its route names', () => {
    expect(ENTITIES[declaration.entity]).toBeDefined();
    expect(entityFor(name)).toEqual({ entity: ENTITIES[declaration.entity], seller: false });
    expect(ACCESS.find((a) => a.token === token)?.path).toBe(`/${name}`);
  });

  it('is in the sidebar of an admin holding its token, and of no one else', () => {
    expect(paths(admin([token]))).toContain(`/${name}`);
    expect(paths(admin(ASSIGNABLE_TOKENS.filter((t) => t !== token)))).not.toContain(`/${name}`);
    expect(paths(profile([1, 2], [token]))).not.toContain(`/${name}`);
    expect(paths(profile([1], [token]))).not.toContain(`/${name}`);
  });

  if (declaration.seller) {
    it('has a seller variant in every seller sidebar and every admin sidebar', () => {
      const seller = declaration.seller!;
      expect(entityFor(seller)).toEqual({ entity: ENTITIES[declaration.entity], seller: true });
      expect(paths(profile([1, 2], []))).toContain(`/${seller}`);
      expect(paths(admin([]))).toContain(`/${seller}`);
      expect(paths(profile([1], []))).not.toContain(`/${seller}`);
    });
  }

  it('has every label it shows in i18n', () => {
    const messages = (en.resources as Record<string, { fields: Record<string, string>; inputs?: Record<string, string> }>)[name];
    for (const column of declaration.columns) expect(messages.fields[column.source], column.source).toEqual(expect.any(String));
    for (const field of declaration.form?.fields ?? []) {
      if (field.input !== 'location') expect(messages.inputs?.[field.source], field.source).toEqual(expect.any(String));
    }
    for (const option of declaration.control?.options ?? []) expect(messages.inputs?.[option.source]).toEqual(expect.any(String));
  });
});
