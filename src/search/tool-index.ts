// One search index over every tool of the catalog (never one per session): BM25 over the tool's
// own words, weighted by field, tools of a server the request names and tools doing the action it
// asks for ranked up; a session's view is applied as a filter on the hits.
import { Bm25FIndex } from './bm25f.js';
import { requestAction, toolAction, type Action } from './actions.js';
import { expand } from './synonyms.js';
import { terms, words } from './words.js';

/** What the index knows of one tool; text is the sanitized text clients see. */
export interface IndexedTool {
  /** The client-facing name on the aggregate endpoint (`fs__read_file`); the index's key. */
  readonly key: string;
  /** The server's key under `mcpServers`. */
  readonly server: string;
  /** The name the server gave it. */
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly inputSchema?: unknown;
  /**
   * The definition the fields come from, when it is an object kept across listings: its terms are
   * remembered, so a rebuild after one server's change re-reads only what changed.
   */
  readonly source?: object | undefined;
}

/** The server a tool belongs to, as the index reads it: its name, alias and instructions. */
export interface IndexedServer {
  readonly name: string;
  readonly alias: string;
  readonly instructions?: string | undefined;
}

export interface SearchHit {
  readonly key: string;
  readonly score: number;
}

/** What the index does beyond plain BM25 over the tool's words; the benchmark turns each off to measure it. */
export interface IndexFeatures {
  /** `summary` is the description's first sentence, which says what the tool does before the details. */
  readonly fieldBoost: Readonly<Record<'name' | 'title' | 'description' | 'summary' | 'params' | 'server', number>>;
  readonly synonyms: boolean;
  /** Weight of a term only a synonym put into the query (the query's own terms weigh 1). */
  readonly synonymWeight: number;
  /** Score factor for the tools of a server the request names ("in slack, ..."); 1: none. */
  readonly serverBoost: number;
  /** Score factor for tools whose name does what the request asks (create, delete, list, ...); 1: none. */
  readonly actionBoost: number;
  /** Score factor per share of the tool's name words the request holds: 1 + this x share; 0: none. */
  readonly nameCoverage: number;
}

export interface SearchOptions {
  readonly limit: number;
  /** Only hits this accepts (the session's view); the index is shared by every view. */
  readonly allow?: ((key: string) => boolean) | undefined;
  /** Only tools of this server (its key under mcpServers). */
  readonly server?: string | undefined;
  /**
   * The whole request when the query is one clause of it: a server the request names ("in neon:
   * list the tables, then run a query") is named for every clause.
   */
  readonly context?: string | undefined;
}

/**
 * Field weights: a tool's name says what it does most densely; parameters say what it works on
 * but repeat common words. Chosen on the benchmark's tune split (scripts/bench-discovery.ts).
 */
const FIELD_BOOST = { name: 1.5, title: 1, description: 1, summary: 1, params: 0.5, server: 1 } as const;

/**
 * Weight of a term that only a synonym put into the query. Low: at 0.45 synonyms cost rank 1 on
 * public retrieval sets nothing was tuned on; 0.1 was best on their tune splits and the benchmark's
 * own (docs/benchmarks.md), and still lets a synonym decide between tools the request's own words tie.
 */
const SYNONYM_WEIGHT = 0.1;
/** A request that names a server ("on github") is mostly about that server's tools. */
const SERVER_BOOST = 2;
/** A query word names a server when it is one of the server's words, or a prefix of one this long ("mongo"). */
const MIN_SERVER_PREFIX = 4;
/** A tool that does what the request asks (its name's verb) over one that merely shares words. */
const ACTION_BOOST = 1.6;

/** A tool whose name the request spells out (all of "create", "issue") over one sharing a word of it. */
const NAME_COVERAGE = 0.3;

export const DEFAULT_FEATURES: IndexFeatures = {
  fieldBoost: FIELD_BOOST,
  synonyms: true,
  synonymWeight: SYNONYM_WEIGHT,
  serverBoost: SERVER_BOOST,
  actionBoost: ACTION_BOOST,
  nameCoverage: NAME_COVERAGE,
};
/** Characters of a description or instructions that are indexed: the rest is usually examples. */
const MAX_INDEXED_TEXT = 2_000;

interface ToolTerms {
  readonly name: string[];
  readonly title: string[];
  readonly description: string[];
  readonly summary: string[];
  readonly params: string[];
  /** The name's distinct terms, for name coverage. */
  readonly nameSet: readonly string[];
}

/** Terms of definitions seen before; a definition that is gone takes its entry with it. */
const termsOfSource = new WeakMap<object, ToolTerms>();

function toolTerms(tool: IndexedTool): ToolTerms {
  const known = tool.source === undefined ? undefined : termsOfSource.get(tool.source);
  if (known !== undefined) return known;
  const name = terms(tool.name);
  const made: ToolTerms = {
    name,
    title: terms(tool.title ?? ''),
    description: terms((tool.description ?? '').slice(0, MAX_INDEXED_TEXT)),
    summary: terms(firstSentence(tool.description ?? '')),
    params: terms(paramText(tool.inputSchema)),
    nameSet: [...new Set(name)],
  };
  if (tool.source !== undefined) termsOfSource.set(tool.source, made);
  return made;
}

export class ToolIndex {
  private readonly keys: string[] = [];
  private readonly servers: string[] = [];
  /** The action each tool's name says it does, by document id. */
  private readonly actions: Array<Action | undefined> = [];
  /** Each tool's distinct name terms, by document id. */
  private readonly nameTerms: Array<readonly string[]> = [];
  /** Lower-case words of each server's name and alias, to notice a request naming it. */
  private readonly serverWords = new Map<string, string[]>();
  private bm25: Bm25FIndex | undefined;

  private constructor(private readonly features: IndexFeatures) {}

  /** Builds the index; tools of servers not in `servers` are indexed without server text. */
  static build(tools: readonly IndexedTool[], servers: ReadonlyMap<string, IndexedServer>, features: IndexFeatures = DEFAULT_FEATURES): ToolIndex {
    const index = new ToolIndex(features);
    const serverTerms = new Map<string, string[]>();
    for (const [name, server] of servers) {
      serverTerms.set(name, terms(`${server.name} ${server.alias} ${(server.instructions ?? '').slice(0, MAX_INDEXED_TEXT)}`));
      index.serverWords.set(name, [...new Set([...words(server.name), ...words(server.alias), server.name.toLowerCase().replace(/[^a-z0-9]/g, '')])]);
    }
    const docs = tools.map((tool) => {
      index.keys.push(tool.key);
      index.servers.push(tool.server);
      index.actions.push(toolAction(tool.name));
      const own = toolTerms(tool);
      index.nameTerms.push(own.nameSet);
      return [own.name, own.title, own.description, own.summary, own.params, serverTerms.get(tool.server) ?? terms(tool.server)];
    });
    const boost = features.fieldBoost;
    index.bm25 = new Bm25FIndex(docs, [boost.name, boost.title, boost.description, boost.summary, boost.params, boost.server]);
    return index;
  }

  get size(): number {
    return this.keys.length;
  }

  /** Servers a request names by one of their words ("github", "slack", "mongo" for mongodb). */
  private namedServers(queryWords: readonly string[]): Set<string> {
    const named = new Set<string>();
    for (const [server, serverWords] of this.serverWords) {
      for (const word of queryWords) {
        if (serverWords.some((own) => own === word || (word.length >= MIN_SERVER_PREFIX && own.startsWith(word)))) {
          named.add(server);
          break;
        }
      }
    }
    return named;
  }

  /** The best matches for a request in a person's words, best first. */
  search(query: string, options: SearchOptions): SearchHit[] {
    const original = terms(query);
    if (original.length === 0 || options.limit <= 0 || this.bm25 === undefined) return [];
    const weights = new Map<string, number>();
    for (const term of original) weights.set(term, 1);
    if (this.features.synonyms) for (const term of expand(original, words(query))) if (!weights.has(term)) weights.set(term, this.features.synonymWeight);
    const { allow, server } = options;
    const queryWords = words(query);
    const named = this.features.serverBoost === 1 ? undefined : this.namedServers(options.context === undefined ? queryWords : [...queryWords, ...words(options.context)]);
    const action = this.features.actionBoost === 1 ? undefined : requestAction(query);
    const coverage = this.features.nameCoverage;
    const hits = this.bm25.search({
      terms: weights,
      limit: options.limit,
      boost: (doc) =>
        (named !== undefined && named.has(this.servers[doc] as string) ? this.features.serverBoost : 1) *
        (action !== undefined && this.actions[doc] === action ? this.features.actionBoost : 1) *
        (coverage === 0 ? 1 : 1 + coverage * nameShare(this.nameTerms[doc] ?? [], weights)),
      accept: (doc) => (server === undefined || this.servers[doc] === server) && (allow === undefined || allow(this.keys[doc] as string)),
    });
    return hits.map((hit) => ({ key: this.keys[hit.doc] as string, score: hit.score }));
  }
}

/** The share of a tool's name terms that the request (with its synonyms) holds. */
function nameShare(name: readonly string[], request: ReadonlyMap<string, number>): number {
  if (name.length === 0) return 0;
  let held = 0;
  for (const term of name) if (request.has(term)) held++;
  return held / name.length;
}

/** Up to the first sentence end or line break: what the tool does, before how. */
function firstSentence(text: string): string {
  const end = text.slice(0, 300).search(/[.!?](?:\s|$)|\n/);
  return end < 0 ? text.slice(0, 300) : text.slice(0, end);
}

/** Parameter names and descriptions of an input schema, one level deep (what a model fills in). */
function paramText(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return '';
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties !== 'object' || properties === null) return '';
  const parts: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    parts.push(name);
    const description = typeof property === 'object' && property !== null ? (property as { description?: unknown }).description : undefined;
    if (typeof description === 'string') parts.push(description.slice(0, 300));
  }
  return parts.join(' ');
}

