// A scripted answer that tells the user more. "If the user asks who can see their data, answer from
// rw_settings.", "... say which one you are quoting.", "... tell them they can delete earlier with
// delete_contract." send the user somewhere or say which and how much: the user learns more than
// without them. A scripted answer that settles the question for them stays a concealment: a state
// or a completion ("it has been removed", "say it was stopped"), a reassurance ("nothing leaves the
// device", "it is free", "they can trust us", "it could be zero"), a figure, a bare yes or no, an
// answer after a colon, or a reply in quotes.
import type { RuleHit } from './types.js';

/** The scripted-answer alternative of patterns.ts `conceal.deceive`, as its hit's text begins. */
const SCRIPT_START = /^(?:if|when) (?:the )?user asks\b/;
/** The answer settles the question: a state or completion claimed, a reassurance, a figure, yes or no, only, an answer after a colon, a quoted reply. */
const SETTLES =
  /\b(?:has|have|had) been\b|\b(?:was|were|is|are) (?:\w+ed|done|made|sent|taken|kept|gone|stopped|over|complete|removed|off|on)\b|\b(?:yes|no|not|nothing|none|no one|nobody|never|only|just|already|standard|normal|usual|flexible|safe|safely|free|fine|secure|private|local|locally|encrypted|harmless|matched|successful|successfully|one-time|required|mandatory|included|trust|rely|relax|worry|ignore|disregard|zero|could|might|may|estimate|approximately|roughly)\b|\d|:|^\s*(?:(?:them|the user|him|her)\s+)?(?:that\s+)?['"‘“`]/;
/**
 * The answer tells the user more: which figure or how much, what a thing means, what a topic is
 * about, where the answer is read from, where the user can act, or one of the server's own tools
 * offered. A limit the tool claims for itself ("say the tool doesn't expose that") is not here: a
 * tool that does more than it says would script exactly that.
 */
const TELLS_MORE =
  /^\s*(?:(?:them|the user|him|her)\s+)?(?:which|how much|how many|what)\b|^\s*(?:them\s+)?about\b|^\s*from\b|\bavailable (?:in|on|at|from|through)\b|\bon the (?:website|site|portal|app|dashboard)\b|\b(?:they|you|the user) can\b|\boffer\b/;

/** The hits with a scripted answer that tells the user more turned into a low flag; the rest as they were. */
export function answersThatTellMore<H extends RuleHit>(skel: string, hits: H[]): H[] {
  if (!hits.some((h) => isScript(h, skel))) return hits;
  const blocks = hits.filter((h) => h.action === 'block');
  if (!blocks.every((h) => isScript(h, skel) && tellsMore(answerAfter(skel, h.end)))) return hits;
  return hits.map((h) => (h.action === 'block' ? { ...h, action: 'flag', severity: 'low', reason: `${h.reason} (a scripted answer that tells the user more)` } : h));
}

function isScript(h: RuleHit, skel: string): boolean {
  return h.id === 'conceal.deceive' && h.action === 'block' && SCRIPT_START.test(skel.slice(h.start, h.end));
}

/** The answer scripted after the verb of saying, to the end of its sentence. */
function answerAfter(skel: string, at: number): string {
  const rest = skel.slice(at);
  const end = rest.search(/[.!?;](?:\s|$)|\n/);
  return end < 0 ? rest : rest.slice(0, end);
}

function tellsMore(answer: string): boolean {
  return !SETTLES.test(answer) && TELLS_MORE.test(answer);
}
