// The names a verdict depended on. A tool's verdict reads the catalog's names only through a few
// lookups (is "read_file" another server's tool? which names are one edit from mine?), so when a
// server comes or goes the verdict still holds unless one of its lookups concerns a name that came
// or went. That turns a server's arrival at 5,000 tools from a rescan of every tool into a check of
// each tool's few questions against the handful of names that changed.
import type { CatalogIndexLike, ServerNames } from '../sanitize/index.js';

const TOOL = '0';
const SERVER = '1';
const SKELETON = '2';
const NEAR = '3';
/** Joins questions in one string per verdict: thousands of verdicts, each a few questions. */
const SEPARATOR = '\u0000';

/** What one verdict asked of the names. */
export class NameLookups {
  /** Each question once: its kind's digit, then its argument ('0read_file'), joined by SEPARATOR. */
  private constructor(private readonly questions: string) {}

  static readonly NONE = new NameLookups('');

  /**
   * True when one of the questions would be answered differently because of the names in
   * `changed` (every name that came or went since the verdict was made, as an index of its own).
   */
  touchedBy(changed: CatalogIndexLike): boolean {
    if (this.questions === '') return false;
    for (const question of this.questions.split(SEPARATOR)) {
      const argument = question.slice(1);
      switch (question[0]) {
        case TOOL:
          if (changed.toolOwners(argument).length > 0) return true;
          break;
        case SERVER:
          if (changed.serverOwners(argument).length > 0) return true;
          break;
        case SKELETON:
          if (changed.skeletonOwners(argument).length > 0) return true;
          break;
        default:
          if (changed.nearOwners(argument).length > 0) return true;
      }
    }
    return false;
  }

  /** An index that answers from `index` and writes down every question; `done()` gives the record. */
  static recorder(index: CatalogIndexLike): CatalogIndexLike & { done(): NameLookups } {
    const asked = new Set<string>();
    const ask = <T>(kind: string, argument: string, answer: T): T => {
      asked.add(kind + argument);
      return answer;
    };
    return {
      toolOwners: (name) => ask(TOOL, name, index.toolOwners(name)),
      serverOwners: (name) => ask(SERVER, name, index.serverOwners(name)),
      skeletonOwners: (skeleton) => ask(SKELETON, skeleton, index.skeletonOwners(skeleton)),
      nearOwners: (name) => ask(NEAR, name, index.nearOwners(name)),
      done: () => (asked.size === 0 ? NameLookups.NONE : new NameLookups([...asked].join(SEPARATOR))),
    };
  }
}

/**
 * The names that came or went between two catalogs, per server: a tool present on one side only,
 * and a server's own names when it came, went or changed alias. An owner of a name in this set is
 * exactly what can change a lookup's answer.
 */
export function changedNames(before: readonly ServerNames[], after: readonly ServerNames[]): ServerNames[] {
  const old = new Map(before.map((entry) => [entry.server, entry]));
  const out: ServerNames[] = [];
  const seen = new Set<string>();
  for (const now of after) {
    seen.add(now.server);
    const was = old.get(now.server);
    const aliasesChanged = was === undefined || !sameList(was.aliases ?? [], now.aliases ?? []);
    const tools = was === undefined ? now.tools : symmetricDifference(was.tools, now.tools);
    // The index always files a server under its own name too: a server whose tools alone changed
    // also reads as changed to a question about its name, which only costs that verdict a rescan.
    if (aliasesChanged || tools.length > 0) out.push({ server: now.server, aliases: aliasesChanged ? [...(now.aliases ?? []), ...(was?.aliases ?? [])] : [], tools });
  }
  for (const was of before) if (!seen.has(was.server)) out.push(was);
  return out;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

function symmetricDifference(a: readonly string[], b: readonly string[]): string[] {
  const inA = new Set(a);
  const inB = new Set(b);
  const out: string[] = [];
  for (const name of a) if (!inB.has(name)) out.push(name);
  for (const name of b) if (!inA.has(name)) out.push(name);
  return out;
}
