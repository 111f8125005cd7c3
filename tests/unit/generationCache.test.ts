/**
 * GenerationCache: an answer kept while the database is unchanged, and, for the caches that ask
 * for it (list pages), kept only from its second ask at one generation.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ASKED_PER_KEPT, GenerationCache, openDatabase, type Database } from '../../server/db';

describe('GenerationCache', () => {
  let database: Database;
  let computed: string[];
  beforeEach(() => {
    database = openDatabase({});
    computed = [];
  });
  afterEach(() => database.close());

  const ask = (cache: GenerationCache<string>, key: string) =>
    cache.get(database.db, key, async () => (computed.push(key), `${key}#${computed.length}`));
  /** Any write moves the generation. */
  const write = () => database.db.schema.createTable(`t${computed.length}_${Math.random().toString(36).slice(2)}`).addColumn('id', 'integer').execute();

  it('keeps an answer from its first ask until the database changes', async () => {
    const cache = new GenerationCache<string>(10);
    expect(await ask(cache, 'a')).toBe('a#1');
    expect(await ask(cache, 'a')).toBe('a#1');
    await write();
    expect(await ask(cache, 'a')).toBe('a#2');
    expect(computed).toEqual(['a', 'a']);
  });

  it('with keptWhenAskedAgain, keeps an answer from its second ask at one generation', async () => {
    const cache = new GenerationCache<string>(10, { keptWhenAskedAgain: true });
    expect(await ask(cache, 'a')).toBe('a#1');
    expect(await ask(cache, 'a')).toBe('a#2');
    expect(await ask(cache, 'a')).toBe('a#2');
    expect(await ask(cache, 'a')).toBe('a#2');
    expect(computed).toEqual(['a', 'a']);
  });

  it('does not count an ask made before the database changed', async () => {
    const cache = new GenerationCache<string>(10, { keptWhenAskedAgain: true });
    await ask(cache, 'a');
    await write();
    // The first ask at this generation: computed, not kept.
    await ask(cache, 'a');
    await ask(cache, 'a');
    await ask(cache, 'a');
    expect(computed).toEqual(['a', 'a', 'a']);
  });

  it('keeps pages asked once out of the way of those asked again', async () => {
    const cache = new GenerationCache<string>(2, { keptWhenAskedAgain: true });
    await ask(cache, 'hot');
    await ask(cache, 'hot');
    // Many pages turned through once: none is kept, so the page asked again stays.
    for (let i = 0; i < 50; i++) await ask(cache, `once ${i}`);
    computed = [];
    await ask(cache, 'hot');
    expect(computed).toEqual([]);
  });

  it('remembers the most recent ASKED_PER_KEPT × size keys asked once', async () => {
    const size = 2;
    const cache = new GenerationCache<string>(size, { keptWhenAskedAgain: true });
    const remembered = size * ASKED_PER_KEPT;
    await ask(cache, 'early');
    for (let i = 1; i < remembered; i++) await ask(cache, `other ${i}`);
    // 'early' is still among the remembered: its second ask keeps it.
    await ask(cache, 'early');
    computed = [];
    await ask(cache, 'early');
    expect(computed).toEqual([]);

    await ask(cache, 'late');
    for (let i = 0; i < remembered; i++) await ask(cache, `more ${i}`);
    // One key too many since 'late' was asked: forgotten, so its next ask is a first again.
    await ask(cache, 'late');
    await ask(cache, 'late');
    expect(computed.filter((k) => k === 'late')).toEqual(['late', 'late', 'late']);
  });
});
