// A small BM25 index over a few weighted fields: term -> postings of (document, field, count).
// Built for rebuilding often (every listing change) and searching with per-term and per-document
// weights. Measured against MiniSearch at 5,000 tools: builds in a fraction of the time (no radix
// tree: we need no prefix or fuzzy matching) with the same scoring (BM25+, k1 1.2, b 0.7, d 0.5).

/** BM25's term-frequency saturation and length normalization, and BM25+'s floor for a match. */
const K1 = 1.2;
const B = 0.7;
const DELTA = 0.5;

export interface Bm25Hit {
  readonly doc: number;
  readonly score: number;
}

export interface Bm25Query {
  /** Terms and their weights. */
  readonly terms: ReadonlyMap<string, number>;
  /** Score factor per document (1 for none). */
  readonly boost?: ((doc: number) => number) | undefined;
  /** Documents that may be returned. */
  readonly accept?: ((doc: number) => boolean) | undefined;
  readonly limit: number;
}

export class Bm25FIndex {
  /**
   * term -> its postings: the documents holding it (a document once per field that holds it), and
   * what each adds to a score at weight 1. The addend (idf, saturation, length and field weight)
   * depends only on the index, so it is computed once at build, not per search.
   */
  private readonly postings = new Map<string, { readonly docs: Int32Array; readonly addends: Float64Array }>();
  readonly size: number;

  /** `docs[d][f]` is document d's field f as terms; `boosts[f]` weighs field f. */
  constructor(docs: readonly (readonly (readonly string[])[])[], boosts: readonly number[]) {
    this.size = docs.length;
    const lengths = boosts.map(() => new Float64Array(docs.length));
    const totals = boosts.map(() => 0);
    /** term -> flat triples: document, field, count. */
    const triples = new Map<string, number[]>();
    /** Documents holding each term, per field: a word common in descriptions can be rare in names. */
    const documentFrequency = new Map<string, number[]>();
    const counts = new Map<string, number>();
    for (let doc = 0; doc < docs.length; doc++) {
      const fields = docs[doc] as readonly (readonly string[])[];
      for (let field = 0; field < boosts.length; field++) {
        const terms = fields[field] ?? [];
        (lengths[field] as Float64Array)[doc] = terms.length;
        totals[field] = (totals[field] as number) + terms.length;
        counts.clear();
        for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
        for (const [term, count] of counts) {
          let list = triples.get(term);
          if (list === undefined) triples.set(term, (list = []));
          list.push(doc, field, count);
          let frequency = documentFrequency.get(term);
          if (frequency === undefined) documentFrequency.set(term, (frequency = boosts.map(() => 0)));
          frequency[field] = (frequency[field] as number) + 1;
        }
      }
    }
    const averageLength = totals.map((total) => (docs.length === 0 ? 1 : Math.max(1, total / docs.length)));
    for (const [term, list] of triples) {
      const frequency = documentFrequency.get(term) ?? [];
      const postingDocs = new Int32Array(list.length / 3);
      const addends = new Float64Array(list.length / 3);
      for (let i = 0; i < list.length; i += 3) {
        const doc = list[i] as number;
        const field = list[i + 1] as number;
        const tf = list[i + 2] as number;
        const df = frequency[field] ?? 1;
        const idf = Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
        const length = (lengths[field] as Float64Array)[doc] as number;
        const norm = tf * (K1 + 1) / (tf + K1 * (1 - B + (B * length) / (averageLength[field] as number))) + DELTA;
        postingDocs[i / 3] = doc;
        addends[i / 3] = idf * norm * (boosts[field] as number);
      }
      this.postings.set(term, { docs: postingDocs, addends });
    }
  }

  search(query: Bm25Query): Bm25Hit[] {
    if (query.limit <= 0) return [];
    const scores = new Float64Array(this.size);
    // Query terms each document matched: the sum is multiplied by it (a coordination factor, as
    // MiniSearch does), so matching more of the request outweighs matching one word many times.
    const matched = new Uint16Array(this.size);
    const lastTerm = new Int32Array(this.size).fill(-1);
    const touched: number[] = [];
    let termIndex = -1;
    for (const [term, weight] of query.terms) {
      termIndex += 1;
      const posting = this.postings.get(term);
      if (posting === undefined) continue;
      const { docs, addends } = posting;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i] as number;
        if (lastTerm[doc] === -1) touched.push(doc);
        if (lastTerm[doc] !== termIndex) {
          lastTerm[doc] = termIndex;
          matched[doc] = (matched[doc] as number) + 1;
        }
        scores[doc] = (scores[doc] as number) + (addends[i] as number) * weight;
      }
    }
    // The best `limit`, kept in order as they come: most documents fall below the last kept one.
    const best: Bm25Hit[] = [];
    for (const doc of touched) {
      if (query.accept !== undefined && !query.accept(doc)) continue;
      const score = (scores[doc] as number) * (matched[doc] as number) * (query.boost?.(doc) ?? 1);
      if (best.length >= query.limit && !before(score, doc, best[best.length - 1] as Bm25Hit)) continue;
      let at = best.length;
      while (at > 0 && before(score, doc, best[at - 1] as Bm25Hit)) at--;
      best.splice(at, 0, { doc, score });
      if (best.length > query.limit) best.pop();
    }
    return best;
  }
}

/** Ranks before: a higher score, or the same score and an earlier document. */
function before(score: number, doc: number, hit: Bm25Hit): boolean {
  return score > hit.score || (score === hit.score && doc < hit.doc);
}
