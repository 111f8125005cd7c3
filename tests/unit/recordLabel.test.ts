/** A record is named by its resource's declared recordRepresentation, as react-admin resources are. */
import { describe, expect, it } from 'vitest';
import { registry } from '../../resources';
import { toResources } from '../../src/screens/registry';
import { recordLabel } from '../../src/screens/recordLabel';

describe('recordRepresentation', () => {
  it('names a record by the declared path and its id, or by its id alone', () => {
    expect(recordLabel({ id: 4, subject: ' Welcome ', name: 'not this' }, 'subject')).toBe('Welcome (#4)');
    expect(recordLabel({ id: 5, user: { name: 'Ada' } }, 'user.name')).toBe('Ada (#5)');
    expect(recordLabel({ id: 6, subject: '' }, 'subject')).toBe('#6');
    expect(recordLabel({ id: 7, name: 'Undeclared' })).toBe('#7');
  });

  it('names a field of its own entity in every declaration that has one', () => {
    for (const def of registry.resources.filter((d) => d.recordRepresentation)) {
      expect(Object.keys(def.api.fields), def.name).toContain(def.recordRepresentation!.split('.')[0]);
    }
  });

  it('reaches react-admin as each screen resource’s recordRepresentation', () => {
    for (const def of registry.resources.filter((d) => d.menu && d.screen && d.recordRepresentation)) {
      const resource = toResources(registry).find((r) => r.name === def.menu!.path.slice(1))!;
      const field = def.recordRepresentation!;
      const represent = resource.recordRepresentation as (record: { id: number }) => string;
      expect(represent({ id: 1, [field]: 'Declared' } as { id: number }), def.name).toBe('Declared (#1)');
    }
  });
});
