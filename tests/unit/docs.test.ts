/**
 * The documentation holds together: README stays a five-minute read, every page under docs/ is
 * reachable from it, and every relative link (and its #anchor) between the project's Markdown files
 * leads somewhere.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const README_LIMIT = 12 * 1024;
const pages = ['README.md', 'SECURITY.md', 'resources/README.md', ...fs.readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading.trim().toLowerCase().replace(/[`*_]/g, '').replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/\s/g, '-');

const anchorsOf = (file: string) =>
  new Set(fs.readFileSync(file, 'utf8').split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => slug(l.replace(/^#+ /, ''))));

/** Relative links of a Markdown file, outside code blocks: [text](target). */
function linksOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((t) => !/^[a-z]+:/.test(t));
}

describe('documentation', () => {
  it(`README is under ${README_LIMIT / 1024} kB`, () => {
    expect(fs.statSync('README.md').size).toBeLessThan(README_LIMIT);
  });

  it('links every page under docs/ from README', () => {
    const fromReadme = new Set(linksOf('README.md').map((t) => t.split('#')[0]));
    for (const page of pages.filter((p) => p.startsWith('docs/'))) expect(fromReadme.has(page), page).toBe(true);
  });

  it.each(pages)('%s links only to files and headings that exist', (file) => {
    for (const target of linksOf(file)) {
      const [rel, anchor] = target.split('#');
      const to = rel ? path.normalize(path.join(path.dirname(file), rel)) : file;
      expect(fs.existsSync(to), `${file} → ${target}`).toBe(true);
      if (anchor) expect(anchorsOf(to).has(anchor), `${file} → ${target}`).toBe(true);
    }
  });

  it('the slug rule follows GitHub', () => {
    expect(slug('Backup and restore')).toBe('backup-and-restore');
    expect(slug('The API: its document, and two dialects')).toBe('the-api-its-document-and-two-dialects');
  });
});
