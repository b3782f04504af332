// Secrets out of what the call log keeps: the value of any member whose name says secret (token,
// password, api_key, authorization, cookie...), and anything shaped like a credential wherever it
// sits (`sk-...`, `ghp_...`, `xoxb-...`, AWS key ids, JWTs, `Bearer ...`, long random strings).
const SECRET_NAME = /pass(?:word|wd|phrase)?|secret|token|api[-_]?key|apikey|authori[sz]ation|\bauth\b|cookie|credential|private[-_]?key|access[-_]?key|session[-_]?key|signature/i;
const CREDENTIAL = /\b(?:sk|pk|rk)[-_](?:live[-_]|test[-_]|proj[-_])?[A-Za-z0-9_-]{16,}|\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}|\bxox[abprs]-[A-Za-z0-9-]{10,}|\bglpat-[A-Za-z0-9_-]{16,}|\bAKIA[0-9A-Z]{16}\b|\bAIza[0-9A-Za-z_-]{30,}|\bya29\.[0-9A-Za-z_-]{20,}|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}|\bBearer\s+[A-Za-z0-9._~+/-]{16,}=*/g;
/** A long run of letters and digits of mixed kinds, no spaces: a key more often than a word. */
const RANDOM_RUN = /\b(?=[A-Za-z0-9+/_-]{32,})(?=[^\s]*[0-9])(?=[^\s]*[a-z])(?=[^\s]*[A-Z])[A-Za-z0-9+/_-]{32,}=*/g;
const MARK = '[redacted]';
const MAX_DEPTH = 16;
const MAX_ITEMS = 200;

/** A copy of `value` fit for a log: secrets replaced by `[redacted]`, deep or wide values cut. */
export function redacted(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replace(CREDENTIAL, MARK).replace(RANDOM_RUN, MARK);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => redacted(item, depth + 1));
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const [key, item] of Object.entries(value)) {
    if (n++ >= MAX_ITEMS) break;
    out[key] = SECRET_NAME.test(key) && item !== null && item !== '' ? MARK : redacted(item, depth + 1);
  }
  return out;
}
