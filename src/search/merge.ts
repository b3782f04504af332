// One list of tools for a request of several steps: the steps the model gave (`queries`), or the
// clauses of one long request (clauses.ts). Shared by find_tools and the benchmark, so what is
// measured is what is served.
import { clauses } from './clauses.js';
import { DEFAULT_FIND_LIMIT, MAX_FIND_LIMIT } from './meta-tools.js';

/** Reciprocal rank fusion constant: how little the first ranks outweigh the next ones. */
const RRF_K = 60;

/** Matches per step when the request does not say: the best, and two in case it is not the one. */
const PER_STEP = 3;

/**
 * One list from the hits of several intents: the best hit of each intent first (in the order the
 * intents were given), so a task of five steps gets its five tools, then the rest by reciprocal
 * rank fusion (a tool several intents rank high comes before one a single intent ranks high).
 * With `ownBestOnly`, an intent whose best tool an earlier one already placed gets no slot of its
 * own (not its second best): the slot goes to the fusion, where the tool both rank high wins.
 */
export function fuse<T>(lists: readonly (readonly T[])[], limit: number, key: (hit: T) => string, ownBestOnly = false): T[] {
  const scores = new Map<string, { hit: T; score: number }>();
  for (const hits of lists) {
    hits.forEach((hit, rank) => {
      const entry = scores.get(key(hit));
      if (entry === undefined) scores.set(key(hit), { hit, score: 1 / (RRF_K + rank + 1) });
      else entry.score += 1 / (RRF_K + rank + 1);
    });
  }
  const out: T[] = [];
  const taken = new Set<string>();
  for (const hits of lists) {
    const best = (ownBestOnly ? hits.slice(0, 1) : hits).find((hit) => !taken.has(key(hit)));
    if (best === undefined || out.length >= limit) continue;
    out.push(best);
    taken.add(key(best));
  }
  const rest = [...scores.values()].filter((entry) => !taken.has(key(entry.hit))).sort((a, b) => b.score - a.score);
  for (const { hit } of rest) {
    if (out.length >= limit) break;
    out.push(hit);
  }
  return out;
}

export interface StepSearch<T> {
  /** The best `limit` hits for one text, best first; `context` is the request a clause is part of. */
  search(text: string, limit: number, context?: string): T[];
  /** A hit's identity: the same tool found by two steps is one tool. */
  key(hit: T): string;
}

export interface RequestText {
  readonly query?: string | undefined;
  /** One query per step, as the model split its task. */
  readonly queries?: readonly string[] | undefined;
  /** Words added to every text searched. */
  readonly keywords?: readonly string[] | undefined;
  readonly limit?: number | undefined;
}

/**
 * The hits for a request. One text is searched as is. Steps the model gave (`queries`, with
 * `query` as the first if both) are each searched and fused. A `query` alone that reads as several
 * steps (clauses.ts) is searched whole and per clause, the whole first: a request that is really
 * one intent, split where it should not have been, keeps its best tool first (measured on the
 * benchmark's tune split: single requests lose nothing, multi-step ones gain).
 */
/**
 * The fewest clauses a lone `query` is split into. Two-part requests ("approve the PR and leave a
 * note", public sets' two-tool requests) lost more than they gained when split (docs/search.md).
 */
const MIN_STEPS = 3;

export function searchRequest<T>(request: RequestText, searcher: StepSearch<T>): T[] {
  const suffix = (request.keywords ?? []).join(' ');
  const withKeywords = (text: string): string => `${text} ${suffix}`.trim();
  const { query, queries = [] } = request;
  const parts = query !== undefined && queries.length === 0 ? clauses(query) : [];
  const split = parts.length >= MIN_STEPS;
  const texts = (split ? [query as string, ...parts] : [...(query === undefined ? [] : [query]), ...queries]).map(withKeywords);
  if (texts.length === 1) return searcher.search(texts[0] as string, request.limit ?? DEFAULT_FIND_LIMIT);
  const steps = split ? parts.length : texts.length;
  return fuse(
    texts.map((text, at) => (split && at > 0 ? searcher.search(text, MAX_FIND_LIMIT, texts[0]) : searcher.search(text, MAX_FIND_LIMIT))),
    request.limit ?? Math.min(MAX_FIND_LIMIT, PER_STEP * steps),
    searcher.key,
    split,
  );
}
