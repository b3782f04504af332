// Ids and texts: who sent what can be read back from any id or text.
//
// Sessions come in pairs j = k >> 1. The even one sends numbers (j+1)*1e7 + seq; the odd one sends
// strings: the same digits as a string on even seqs (a numeric twin exists in the other session, so
// a proxy that mixes 5 and "5" up is caught), `s<k>-<seq>` on odd ones. Ids are unique in the run.
import type { RpcId } from '../chaos-lib.js';

const ID_SPAN = 10_000_000;

export function makeId(k: number, seq: number): RpcId {
  const digits = ((k >> 1) + 1) * ID_SPAN + seq;
  if (k % 2 === 0) return digits;
  return seq % 2 === 0 ? String(digits) : `s${k}-${seq}`;
}

/** The calls each session has numbered so far, to tell an id we sent from one we never did. */
export class CallIds {
  private readonly lastSeq: number[];

  constructor(private readonly sessions: number) {
    this.lastSeq = Array.from({ length: sessions }, () => 0);
  }

  /** The next call number of session k. */
  next(k: number): number {
    return (this.lastSeq[k] = (this.lastSeq[k] ?? 0) + 1);
  }

  /** The session and call an id belongs to, or undefined if we never sent it. */
  ownerOf(id: unknown): { k: number; seq: number } | undefined {
    let k: number;
    let seq: number;
    if (typeof id === 'number' && Number.isInteger(id)) {
      [k, seq] = [(Math.floor(id / ID_SPAN) - 1) * 2, id % ID_SPAN];
    } else if (typeof id === 'string' && /^\d+$/.test(id)) {
      [k, seq] = [(Math.floor(Number(id) / ID_SPAN) - 1) * 2 + 1, Number(id) % ID_SPAN];
      if (seq % 2 !== 0) return undefined;
    } else if (typeof id === 'string' && /^s\d+-\d+$/.test(id)) {
      [k, seq] = id.slice(1).split('-').map(Number) as [number, number];
      if (k % 2 !== 1 || seq % 2 !== 1) return undefined;
    } else return undefined;
    return k >= 0 && k < this.sessions && seq >= 0 && seq <= (this.lastSeq[k] ?? -1) ? { k, seq } : undefined;
  }

  describe(id: unknown): string {
    const owner = this.ownerOf(id);
    return owner === undefined ? `id ${JSON.stringify(id)} (never sent)` : `id ${JSON.stringify(id)} (session ${owner.k} call ${owner.seq})`;
  }
}

const FILLER = 'The quick brown fox jumps over the lazy dog; é ✓ 漢字 🙂 ';

/** This call's echo text: a readable owner tag, then sometimes multi-byte or long filler (chunk boundaries). */
export function echoText(random: () => number, k: number, seq: number): string {
  const tag = `chaos|s${k}|c${seq}|${Math.floor(random() * 1e9).toString(36)}|`;
  const r = random();
  if (r < 0.05) return tag + FILLER.repeat(Math.ceil((4_000 + random() * 16_000) / FILLER.length));
  if (r < 0.3) return tag + FILLER;
  return tag;
}

export const textOwner = (text: string): string => {
  const m = /^chaos\|s(\d+)\|c(\d+)\|/.exec(text);
  return m === null ? `a text we never sent (${JSON.stringify(text.slice(0, 40))})` : `the text of session ${m[1]} call ${m[2]}`;
};
