/**
 * Every sidebar entry a resource file declares names an icon of the console's set: a name the set
 * lacks would fall back to the default icon unnoticed (a resource file names its icon as data, so the
 * server can read the declaration without React).
 */
import { describe, expect, it } from 'vitest';
import { registry } from '../../resources';
import { MENU_ICONS } from '../../src/layout/menuIcons';

describe('sidebar icons', () => {
  const entries = [...registry.access, ...registry.sellerPages, ...registry.buyerEntries];

  it('every declared entry names an icon, and the set holds it', () => {
    expect(entries.length).toBeGreaterThan(0);
    const missing = entries.filter((entry) => entry.icon === undefined || !(entry.icon in MENU_ICONS)).map((entry) => `${entry.token}: ${String(entry.icon)}`);
    expect(missing).toEqual([]);
  });
});
