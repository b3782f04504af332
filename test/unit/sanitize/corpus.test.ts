// The poison corpus (test/fixtures/poison-corpus): every poisoned definition of every class is
// withheld, and no benign definition that merely looks risky is.
import { describe, expect, it } from 'vitest';
import { CatalogIndex, sanitizeEntity } from '../../../src/sanitize/index.js';
// @ts-expect-error plain data module without types
import { CLASSES, POISON } from '../../fixtures/poison-corpus/poison.mjs';
// @ts-expect-error plain data module without types
import { BENIGN } from '../../fixtures/poison-corpus/benign.mjs';

interface Case {
  id: string;
  cls?: number;
  note: string;
  siblings?: string[];
  tool: { name: string };
}

// Another server of the same catalog, whose tools the poisoned definitions try to steer.
const OTHER = new CatalogIndex([
  {
    server: 'other',
    aliases: ['other'],
    tools: ['list_directory', 'read_file', 'send_email', 'run_command', 'create_issue', 'query_database', 'slack_post_message', 'git_push', 'write_file', 'fetch_url'],
  },
]);

function judge(c: Case): ReturnType<typeof sanitizeEntity> {
  return sanitizeEntity('tool', c.tool, { server: 'srv', ownToolNames: new Set([c.tool.name, ...(c.siblings ?? [])]), otherServers: OTHER, blocking: true });
}

describe('poison corpus', () => {
  const poison = POISON as Case[];
  const classes = CLASSES as Record<string, string>;

  it('holds at least 10 cases of each class', () => {
    for (const cls of Object.keys(classes)) expect(poison.filter((c) => String(c.cls) === cls).length, classes[cls]).toBeGreaterThanOrEqual(10);
  });

  for (const [cls, title] of Object.entries(classes)) {
    it(`withholds every case of class ${cls}: ${title}`, () => {
      const passed = poison.filter((c) => String(c.cls) === cls && !judge(c).blocked).map((c) => `${c.id} (${c.note})`);
      expect(passed).toEqual([]);
    });
  }

  it('withholds none of the benign definitions that look risky (a flag is allowed)', () => {
    const benign = BENIGN as Case[];
    expect(benign.length).toBeGreaterThanOrEqual(40);
    const withheld = benign.flatMap((c) => {
      const r = judge(c);
      return r.blocked ? [`${c.id} (${c.note}): ${r.findings.filter((f) => f.action === 'block').map((f) => f.rule).join(', ')}`] : [];
    });
    expect(withheld).toEqual([]);
  });
});
