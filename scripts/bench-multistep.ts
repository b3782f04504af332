// The multi-step part of the discovery benchmark: requests of several steps in one sentence
// (bench/discovery/multistep.jsonl), each step labelled with every tool that serves it. Measures
// how many requests get all their tools in the top 5 (all-tools@5) and how many steps get theirs
// (recall@5). The held-out third is chosen by a hash of the id, so adding requests moves none.
import fs from 'node:fs';
import path from 'node:path';

export interface MultiStep {
  readonly id: string;
  readonly query: string;
  /** Per step, the tools (`server__tool`) that serve it; any one of them does. */
  readonly steps: readonly (readonly string[])[];
  readonly split: 'tune' | 'holdout';
}

export interface StepRecall {
  readonly n: number;
  readonly steps: number;
  /** Requests with every step served within the top `k`. */
  readonly all: number;
  /** Steps served within the top `k`. */
  readonly recall: number;
  /** Tools returned, on average (the default limit grows with the clauses). */
  readonly returned: number;
}

/** FNV-1a, 32 bits: a split that does not depend on the order or number of requests. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

export function loadMultistep(dir: string, known: ReadonlySet<string>): MultiStep[] {
  const requests = fs
    .readFileSync(path.join(dir, 'multistep.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const data = JSON.parse(line) as { id: string; query: string; steps: string[][] };
      return { ...data, split: fnv1a(data.id) % 3 === 0 ? 'holdout' : 'tune' } as const;
    });
  for (const request of requests) {
    const unknown = request.steps.flat().find((key) => !known.has(key));
    if (unknown !== undefined) throw new Error(`${request.id} labels ${unknown}, not in the catalog`);
  }
  return requests;
}

/** `rank` gives a request's tools, best first; only the first `k` count. */
export function stepRecall(rank: (query: string) => string[], requests: readonly MultiStep[], k: number, misses?: string[]): StepRecall {
  let all = 0;
  let served = 0;
  let steps = 0;
  let returned = 0;
  for (const request of requests) {
    const got = rank(request.query).slice(0, k);
    returned += got.length;
    const missing = request.steps.filter((step) => !step.some((key) => got.includes(key)));
    steps += request.steps.length;
    served += request.steps.length - missing.length;
    if (missing.length === 0) all++;
    else misses?.push(`${request.id} "${request.query.replace(/\n/g, ' / ')}" -> missing ${missing.map((step) => step[0]).join(', ')}; got ${got.join(', ')}`);
  }
  const n = requests.length;
  return { n, steps, all: all / n, recall: served / steps, returned: returned / n };
}
