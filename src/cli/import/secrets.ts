// Which imported values are secrets, and moving them out of the config: each goes to a file of its
// own (mode 0600) in a folder beside the config (0700), and the config reads it with `${file:...}`.
import fs from 'node:fs';
import path from 'node:path';

/** Key names that hold credentials whatever their value looks like. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE/i;
/** Prefixes of well-known credentials: OpenAI/Anthropic (sk-), GitHub, Slack, GitLab, AWS, Google, Stripe, npm, Hugging Face. */
const KNOWN_PREFIX = /^(sk-|sk_live_|sk_test_|rk_live_|pk_live_|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|xox[abprs]-|xapp-|glpat-|AKIA|ASIA|AIza|npm_|hf_|shpat_|sq0atp-|SG\.|ya29\.|eyJ)/;
/** Shorter than this, a random-looking string is more likely an id or a flag than a secret. */
const MIN_SHAPE_LENGTH = 20;

/** Bits per character of a string's own character distribution. */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length);
  return bits;
}

/** A value that looks like a credential by its shape alone: a known prefix, or long, dense and mixed. */
export function looksLikeSecret(value: string): boolean {
  if (value.length < 8 || /\s/.test(value)) return false;
  if (KNOWN_PREFIX.test(value) && value.length >= 12) return true;
  if (value.length < MIN_SHAPE_LENGTH || !/^[A-Za-z0-9_\-+/=.~]+$/.test(value)) return false;
  // Paths, versions, package names and URLs are long but not random.
  if (/^[./~]|\/.*\/|^@|^\d+(\.\d+)+$/.test(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((r) => r.test(value)).length;
  return classes >= 2 && /[0-9]/.test(value) && entropy(value) >= 3.5;
}

/** A value under a secret-sounding name that is still plainly a setting: a path, a URL, a number, a switch, a word. */
function plainSetting(value: string): boolean {
  return value.length < 6 || /^([./~]|https?:\/\/)/.test(value) || /^(true|false|yes|no|on|off|none|null|\d+)$/i.test(value) || /^[a-z]+([_-][a-z]+)*$/.test(value);
}

/** Whether a value is only references (`${VAR}`, `${file:...}`): nothing literal to move. */
function isReference(value: string): boolean {
  return /^(\$\{[^}]+\})+$/.test(value) || value === '';
}

/** The part of a value that is the secret: after `Bearer `, after `--flag=`, or the whole value. */
export function secretPart(value: string, byName: boolean): { readonly before: string; readonly secret: string } | undefined {
  const scheme = /^(Bearer|Basic|Token|token|Bot|ApiKey)\s+(.+)$/.exec(value);
  if (scheme !== null && !isReference(scheme[2] ?? '')) return { before: `${scheme[1]} `, secret: scheme[2] ?? '' };
  const flag = /^(--?[A-Za-z0-9][A-Za-z0-9_-]*=)(.+)$/.exec(value);
  if (flag !== null) {
    const name = flag[1] ?? '';
    const rest = flag[2] ?? '';
    if (!isReference(rest) && (looksLikeSecret(rest) || SECRET_NAME.test(name))) return { before: name, secret: rest };
    return undefined;
  }
  if (isReference(value) || value.includes('${')) return undefined;
  return (byName && !plainSetting(value)) || looksLikeSecret(value) ? { before: '', secret: value } : undefined;
}

export interface MovedSecret {
  /** File name inside the secrets folder. */
  readonly file: string;
  readonly value: string;
}

/** A file name from the parts that say where the value was: `cursor-github-env-GITHUB_TOKEN`. */
export function secretFileName(parts: readonly (string | number)[]): string {
  return parts.map((p) => String(p).replace(/[^A-Za-z0-9_.-]+/g, '_')).join('-').replace(/^[.-]+/, '').slice(0, 120) || 'secret';
}

/**
 * Moves the secrets of one entry: env and header values by name or shape, arguments and URL query
 * values by shape (or by their flag's or parameter's name). `ref` makes the `${file:...}` text.
 */
export function moveSecrets(
  entry: Record<string, unknown>,
  prefix: readonly string[],
  ref: (file: string) => string,
  moved: MovedSecret[],
  /** What a file of that name in the secrets folder holds now, if any: a different value there is never overwritten. */
  onDisk: (file: string) => string | undefined = () => undefined,
): void {
  const take = (value: string, byName: boolean, where: readonly (string | number)[]): string => {
    const part = secretPart(value, byName);
    if (part === undefined) return value;
    const base = secretFileName([...prefix, ...where]);
    const holds = (file: string): string | undefined => moved.find((m) => m.file === file)?.value ?? onDisk(file);
    let file = base;
    for (let n = 2; holds(file) !== undefined && holds(file) !== part.secret; n++) file = `${base}-${n}`;
    if (!moved.some((m) => m.file === file)) moved.push({ file, value: part.secret });
    return `${part.before}${ref(file)}`;
  };
  for (const key of ['env', 'headers'] as const) {
    const record = entry[key];
    if (typeof record !== 'object' || record === null) continue;
    for (const [name, value] of Object.entries(record as Record<string, unknown>)) {
      if (typeof value === 'string') (record as Record<string, unknown>)[name] = take(value, SECRET_NAME.test(name), [key, name]);
    }
  }
  if (Array.isArray(entry['args'])) {
    const args = entry['args'] as unknown[];
    args.forEach((arg, i) => {
      if (typeof arg !== 'string') return;
      // `--api-key sk-...`: the flag before names it.
      const flagBefore = typeof args[i - 1] === 'string' && /^--?[A-Za-z-]*(key|token|secret|password)[A-Za-z-]*$/i.test(args[i - 1] as string);
      const shaped = secretPart(arg, false) !== undefined;
      if (flagBefore || shaped) args[i] = take(arg, flagBefore, ['args', i]);
    });
  }
  if (typeof entry['url'] === 'string') entry['url'] = urlWithoutSecrets(entry['url'], (value, name) => take(value, SECRET_NAME.test(name), ['url', name]));
}

/** A URL whose secret-looking query values are replaced (`?api_key=...`); others left byte for byte. */
function urlWithoutSecrets(url: string, take: (value: string, name: string) => string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const params = url.slice(query + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq === -1) return pair;
    const name = pair.slice(0, eq);
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(eq + 1));
    } catch {
      return pair;
    }
    const taken = take(value, name);
    return taken === value ? pair : `${name}=${taken}`;
  });
  return `${url.slice(0, query + 1)}${params.join('&')}`;
}

/** What a secrets file holds (its one trailing newline dropped), or undefined when there is none. */
export function secretOnDisk(dir: string, file: string): string | undefined {
  try {
    return fs.readFileSync(path.join(dir, file), 'utf8').replace(/\r?\n$/, '');
  } catch {
    return undefined;
  }
}

/** The folder beside the config that holds the secrets moved out of it: `proxy.config.secrets/`. */
export function secretsDirOf(configFile: string): string {
  return path.join(path.dirname(configFile), `${path.basename(configFile).replace(/\.json$/, '')}.secrets`);
}

/** Writes the moved secrets: the folder 0700, each file 0600 (created so, never wider for a moment). */
export function writeSecrets(dir: string, moved: readonly MovedSecret[]): void {
  if (moved.length === 0) return;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  for (const secret of moved) {
    const file = path.join(dir, secret.file);
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${secret.value}\n`, { mode: 0o600 });
    fs.chmodSync(tmp, 0o600);
    fs.renameSync(tmp, file);
  }
}
