// Detections that need more than one regex: pseudo-system tags (with typos) and URLs that carry user data out.
import { gap } from './patterns.js';

export interface MarkupHit {
  readonly rule: 'pseudo-system-tag' | 'exfil-url';
  readonly id: string;
  readonly start: number;
  readonly end: number;
  readonly action: 'block' | 'flag';
  readonly reason: string;
  /** For pseudo tags: the delimited block when the tag is an opening one with a matching close. */
  readonly blockEnd?: number;
}

/** Tags that only exist to impersonate the system or shout at the model. */
const PSEUDO_TAGS = [
  'important', 'system', 'system_prompt', 'system-prompt', 'system_message', 'system-message', 'sys', 'instructions',
  'instruction', 'secret', 'hidden', 'admin', 'critical', 'override', 'priority', 'mandatory', 'tool_instructions',
  'developer', 'developer_instructions', 'urgent', 'warning_to_ai', 'ai_instructions', 'assistant_instructions',
];
const TAG = /<\s?(\/?)\s?([a-z][a-z0-9_-]{1,30})\s?\/?>/g;

/** Damerau-Levenshtein distance, giving up past `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0]!.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]!.push(d);
    }
  }
  return rows[a.length]![b.length]!;
}

function pseudoTagName(name: string): string | undefined {
  if (PSEUDO_TAGS.includes(name)) return name;
  if (name.length < 5) return undefined;
  const max = name.length >= 8 ? 2 : 1;
  return PSEUDO_TAGS.find((t) => t.length >= 5 && editDistance(name, t, max) <= max);
}

export function pseudoTags(skel: string): MarkupHit[] {
  if (!skel.includes('<')) return [];
  const hits: MarkupHit[] = [];
  for (const m of skel.matchAll(TAG)) {
    if (m[1]) continue; // closing tags are found from their opening tag
    const name = m[2] ?? '';
    const known = pseudoTagName(name);
    if (!known) continue;
    const close = skel.slice(m.index).search(new RegExp(`<\\s?/\\s?${name}\\s?>`));
    const closeEnd = close < 0 ? undefined : m.index + close + skel.slice(m.index + close).indexOf('>') + 1;
    hits.push({
      rule: 'pseudo-system-tag',
      id: `pseudo-tag.${known}`,
      start: m.index,
      end: m.index + m[0].length,
      action: 'flag',
      reason: `wraps text in a pseudo-system <${name}> tag`,
      ...(closeEnd !== undefined ? { blockEnd: closeEnd } : {}),
    });
  }
  return hits;
}

const URL_RE = /(?:https?:)?\/\/[^\s"'`]{2,2000}/g;
const PLACEHOLDER = /\{\{?\s?([^{}\n]{1,60}?)\s?\}\}?|<([^<>\n]{1,80})>|\$\(([^)\n]{1,60})\)|\[([^\[\]\n]{1,60})\]/;
/** Placeholder names that can only mean the user's data, secrets or the conversation. */
const SENSITIVE =
  /conversation|history|chat|messages?|prompt|secret|passw|credential|ssh|cookie|transcript|base64|encoded|summary|user'?s? (?:data|info|input|message|query|question)/;
/**
 * Placeholder names for what the user typed, the model produced or the environment holds (not ids
 * or path parts like {owner}): they leak only when the model is told to fetch or render the URL.
 */
const DATA_WORDS = /query|data|text|input|content|payload|info|answer|response|output|result|message|question|context|memory|system|env|api.?key|token|private|^q$|^d$/;
const FETCH_DIRECTIVE = new RegExp(
  `\\b(?:fetch|visit|open|load|render|display|show|output|include|embed|print|navigate to|go to|request|call|curl|wget|append|add|send|post|make (?:a )?request to)\\b${gap(100)}$`,
);
const RENDER_DIRECTIVE = new RegExp(`\\b(?:render|display|show|output|include|embed|print|insert|add)\\b${gap(100)}$`);

/**
 * exfil-url: a URL with a placeholder for the user's data (`?d={conversation}`), or any placeholder
 * in a URL the model is told to fetch or render, or a remote image the model is told to render.
 */
export function exfilUrls(skel: string): MarkupHit[] {
  if (!skel.includes('//')) return [];
  const hits: MarkupHit[] = [];
  for (const m of skel.matchAll(URL_RE)) {
    const url = m[0];
    const before = skel.slice(Math.max(0, m.index - 120), m.index);
    const isImage = /!\[[^\]\n]{0,200}\]\(\s?<?$/.test(before) || /<img\b[^>]{0,200}src\s?=\s?["']?$/.test(before);
    const region = skel.slice(m.index, m.index + url.length + 80);
    const ph = PLACEHOLDER.exec(region);
    const directed = FETCH_DIRECTIVE.test(before);
    // `mongodb://app_user:<password>@host` shows where the user's own password goes in a connection string.
    const userinfo = ph !== null && /^(?:[a-z][a-z0-9+.-]*:)?\/\/[^\/@\s:]+:$/.test(region.slice(0, ph.index)) && region[ph.index + ph[0].length] === '@';
    if (ph && ph.index < url.length && !userinfo) {
      const name = ph[1] ?? ph[2] ?? ph[3] ?? ph[4] ?? '';
      if (SENSITIVE.test(name) || isImage || (directed && DATA_WORDS.test(name))) {
        hits.push({
          rule: 'exfil-url',
          id: isImage ? 'url.image-template' : 'url.template',
          start: m.index,
          end: m.index + ph.index + ph[0].length,
          action: 'block',
          reason: `puts "${name.slice(0, 40)}" into a URL${isImage ? ' of an image that leaks it when rendered' : ''}`,
        });
        continue;
      }
    }
    if (isImage && RENDER_DIRECTIVE.test(skel.slice(Math.max(0, m.index - 220), m.index))) {
      hits.push({
        rule: 'exfil-url',
        id: 'url.render-image',
        start: m.index,
        end: m.index + url.length,
        action: 'block',
        reason: 'tells the model to render a remote image',
      });
    }
  }
  return hits;
}
