import { describe, expect, it } from 'vitest';
import { sanitizeEntity } from '../../../src/sanitize/index.js';
import { CTX, sanitizeTool } from './helpers.js';
import { LEGIT } from '../../fixtures/poison-corpus/near-misses.mjs';


/** Values real servers put in defaults, enums and examples (from the tool lists in bench/discovery/catalog). */
const LEGIT_DATA = [
  'https://api.github.com',
  'https://developers-resource.landpress.line.me/fx/img/01_1_cafe.png',
  './output',
  'SELECT * FROM users LIMIT 10',
  'from:alice@example.com subject:invoice',
  '10.0.0.0/16',
  'claude_opus_4_7',
  'Find the webhook documentation page on this API docs site.',
  'What is the capital of Peru?',
  'Manage monday platform agent',
  'Admin: rotate keys',
  'cohere-rerank-3.5',
  '{"owner": "octocat", "repo": "hello-world"}',
  '--dry-run --verbose',
  'en-US',
];

describe('legitimate text passes byte-identical with no finding', () => {
  for (const [name, text] of Object.entries(LEGIT)) {
    it(`${name} as a tool description`, () => {
      const entity = { name: 'add', description: text };
      const r = sanitizeEntity('tool', entity, CTX);
      expect(r.findings.map((f) => `${f.rule}: ${f.reason}`)).toEqual([]);
      expect(r.forwarded).toBe(entity);
      expect(r.blocked).toBe(false);
    });
  }

  it('every text as a parameter description', () => {
    for (const text of Object.values(LEGIT)) {
      const entity = { name: 'add', inputSchema: { type: 'object', properties: { q: { type: 'string', description: text } } } };
      const r = sanitizeEntity('tool', entity, CTX);
      expect(r.findings.map((f) => `${f.field} ${f.rule}: ${f.reason}`)).toEqual([]);
      expect(r.forwarded).toBe(entity);
    }
  });

  // Data slots hold data (SANITIZE.md data-slot-prose): the values real servers put there pass; a
  // paragraph of documentation addressed to the reader is not data and is judged as such.
  it('real data values as a default, enum value and example', () => {
    for (const text of LEGIT_DATA) {
      const entity = {
        name: 'add',
        inputSchema: {
          type: 'object',
          properties: { q: { type: 'string', default: text, examples: [text] }, mode: { enum: [text] } },
        },
      };
      const r = sanitizeEntity('tool', entity, CTX);
      expect(r.findings.map((f) => `${f.field} ${f.rule}: ${f.reason}`)).toEqual([]);
      expect(r.forwarded).toBe(entity);
    }
  });

  it('a credential path is data only as the default of a parameter about it', () => {
    const about = sanitizeEntity('tool', { name: 'add', inputSchema: { type: 'object', properties: { kubeconfig: { type: 'string', default: '~/.kube/config' } } } }, CTX);
    expect(about.findings).toEqual([]);
    const other = sanitizeEntity('tool', { name: 'add', inputSchema: { type: 'object', properties: { attachment: { type: 'string', default: '~/.kube/config' } } } }, CTX);
    expect(other.blocked).toBe(true);
    expect(other.findings.map((f) => f.rule)).toContain('data-slot-prose');
  });

  it('the same texts as prompt, resource and instructions', () => {
    for (const text of Object.values(LEGIT)) {
      expect(sanitizeEntity('prompt', { name: 'p', description: text, arguments: [{ name: 'a', description: text }] }, CTX).findings).toEqual([]);
      expect(sanitizeEntity('resource', { uri: 'file:///x', name: text.slice(0, 60), description: text }, CTX).findings).toEqual([]);
      expect(sanitizeEntity('instructions', text, CTX).findings).toEqual([]);
    }
  });

  it('never NFKC-normalizes forwarded text even when something else is stripped', () => {
    const r = sanitizeTool('ＡＢＣ１２３ ﬁle 﨑\u200b done');
    expect(r.forwarded['description']).toBe('ＡＢＣ１２３ ﬁle 﨑 done');
  });
});

// Definitions of popular servers the sanitizer once withheld (their own words, or close to them).
describe('real tools once withheld are served', () => {
  it('an image extractor whose parameter takes images from the clipboard saved to disk', () => {
    const tool = {
      name: 'extract_image_from_file',
      description: 'Extract and analyze images from local file paths. Supports images from clipboard, screenshots and downloads.',
      inputSchema: { type: 'object', properties: { file_path: { type: 'string', description: 'Path to the image file (e.g. images from clipboard saved to disk, screenshots)' } } },
    };
    expect(sanitizeEntity('tool', tool, CTX).blocked).toBe(false);
  });

  it('a docstring example that names the server\'s own tools', () => {
    const tool = {
      name: 'set_default_project',
      description: 'Set default project in config. Requires restart to take effect.\n\nExample:\n    set_default_project("work-notes")\n    # Then use write_note or search_notes without the project argument',
      inputSchema: { type: 'object', properties: { project_name: { type: 'string' } } },
    };
    const ctx = { ...CTX, server: 'memory', ownToolNames: new Set(['set_default_project', 'write_note', 'search_notes']) };
    expect(sanitizeEntity('tool', tool, ctx).blocked).toBe(false);
  });
});
