// Every relative link in the shipped documents points at a file that is in the repository.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function documents(): string[] {
  const found = ['README.md'];
  for (const dir of ['docs', 'bench/discovery']) {
    if (fs.existsSync(path.join(ROOT, dir))) for (const name of fs.readdirSync(path.join(ROOT, dir))) if (name.endsWith('.md')) found.push(path.join(dir, name));
  }
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else if (entry.name.endsWith('.md')) found.push(path.join(dir, entry.name));
    }
  };
  walk('src');
  return found;
}

describe('documentation links', () => {
  it('resolve to files in the repository', () => {
    const broken: string[] = [];
    for (const doc of documents()) {
      // Inline code is an example, not a link.
      const text = fs.readFileSync(path.join(ROOT, doc), 'utf8').replace(/`[^`\n]*`/g, '');
      for (const match of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = match[1] as string;
        if (/^[a-z]+:/.test(target)) continue;
        if (!fs.existsSync(path.resolve(ROOT, path.dirname(doc), target))) broken.push(`${doc}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('name only documents that are in the repository', () => {
    // "rules in SANITIZE.md" points a reader at a file as surely as a link does.
    const missing: string[] = [];
    for (const doc of documents()) {
      const text = fs
        .readFileSync(path.join(ROOT, doc), 'utf8')
        .replace(/```[\s\S]*?```/g, '')
        .replace(/`[^`\n]*`/g, '')
        .replace(/\]\([^)]*\)/g, ']')
        .replace(/\b[a-z]+:\/\/\S+/g, '');
      for (const match of text.matchAll(/(?<![\w./-])([\w./-]*\w\.md)\b/g)) {
        const named = match[1] as string;
        if (![path.dirname(doc), '.'].some((base) => fs.existsSync(path.resolve(ROOT, base, named)))) missing.push(`${doc}: ${named}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('ship the sanitization policy the README and the code cite', () => {
    expect(fs.existsSync(path.join(ROOT, 'docs/SANITIZE.md'))).toBe(true);
    expect(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain('](docs/SANITIZE.md)');
  });
});
