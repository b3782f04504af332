// `auth.tokens` → TokenConfig values whose secrets come from the environment or a file, never
// from the config text. No message here may contain a token value: only names, variables and paths.

import fs from 'node:fs';
import path from 'node:path';
import { jsonPath, type Findings, type PathSegment } from './errors.js';
import { substitute } from './interpolate.js';
import { checkProfileRef } from './profiles.js';
import { KNOWN_KEYS, type RawToken } from './schema.js';
import { Secret } from './secret.js';
import { secretSink, substitutionSink, type SecretSink } from './secret-sink.js';
import type { ProfileConfig, TokenConfig } from './types.js';
import { isPlainObject, refuseUnknownKeys } from './validate.js';

/**
 * Characters; 16 random base64 characters are 96 bits. Shorter values are refused because a
 * token guarded only by constant-time comparison must not be guessable, and a short one is
 * almost always a placeholder like `changeme`.
 */
export const MIN_TOKEN_LENGTH = 16;
/** Bytes; a token file is one line, and this keeps a mistaken path (a log, /dev/zero) cheap. */
const MAX_TOKEN_FILE_BYTES = 64 * 1024;
/** RFC 6750 §2.1 `b64token`: what a client can send after `Bearer `. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

const GENERATE = 'generate one with `openssl rand -hex 32`';

export interface TokenContext {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly findings: Findings;
  readonly profiles: Readonly<Record<string, ProfileConfig>>;
  readonly defaultProfile: string | undefined;
  /** false: an unavailable token is a warning and left out (commands that serve no client). */
  readonly needed: boolean;
}

function rawTokens(rawAuth: unknown): readonly unknown[] {
  return isPlainObject(rawAuth) && Array.isArray(rawAuth['tokens']) ? (rawAuth['tokens'] as unknown[]) : [];
}

/**
 * Runs before the schema, so a token pasted into the config is reported even when other parts of
 * the file are broken too. Returns how many entries the config lists, for the loopback rule.
 */
export function checkNoLiteralTokens(rawAuth: unknown, findings: Findings): number {
  const tokens = rawTokens(rawAuth);
  tokens.forEach((token, i) => {
    if (isPlainObject(token) && Object.hasOwn(token, 'token')) {
      findings.error(
        ['auth', 'tokens', i, 'token'],
        'token values do not belong in the config file: set "tokenEnv" (an environment variable) or "tokenFile" (a file) instead',
      );
    }
  });
  return tokens.length;
}

/** `raw` is the `auth` section as written, `parsed` its tokens after the schema accepted them. */
export function resolveTokens(raw: unknown, parsed: readonly RawToken[], ctx: TokenContext): TokenConfig[] {
  const { findings } = ctx;
  const written = rawTokens(raw);
  const out: TokenConfig[] = [];
  const byName = new Map<string, number>();
  const byValue = new Map<string, number>();
  parsed.forEach((token, i) => {
    const at: PathSegment[] = ['auth', 'tokens', i];
    const entry = written[i];
    if (isPlainObject(entry)) {
      // A literal `token` was already reported by checkNoLiteralTokens.
      if (Object.hasOwn(entry, 'token')) return;
      refuseUnknownKeys(entry, KNOWN_KEYS.token, at, findings);
    }
    const first = byName.get(token.name);
    // Sessions opened while auth was off belong to `anonymous`; a token of that name would inherit them.
    if (token.name === 'anonymous') findings.error([...at, 'name'], 'the token name "anonymous" is reserved for sessions without a token; choose another name');
    else if (first !== undefined) findings.error([...at, 'name'], `token name "${token.name}" is already used by ${jsonPath(['auth', 'tokens', first])}`);
    else byName.set(token.name, i);
    checkProfileRef(token.profile ?? undefined, ctx.profiles, [...at, 'profile'], findings);

    const value = readToken(token, at, ctx);
    if (value === undefined) return;
    const same = byValue.get(value.secret);
    if (same !== undefined) {
      findings.error(at, `has the same token value as ${jsonPath(['auth', 'tokens', same])}; give every member their own token`);
      return;
    }
    byValue.set(value.secret, i);
    // `profile: null` opts out of defaultProfile; absent inherits it.
    const profile = token.profile === null ? undefined : (token.profile ?? ctx.defaultProfile);
    out.push({
      name: token.name,
      profile,
      admin: token.admin || profile === undefined,
      source: value.source,
      file: value.file,
      secret: new Secret(value.secret),
    });
  });
  return out;
}

interface TokenValue {
  readonly secret: string;
  readonly source: string;
  readonly file: string | undefined;
}

function readToken(token: RawToken, at: readonly PathSegment[], ctx: TokenContext): TokenValue | undefined {
  const { findings } = ctx;
  if ((token.tokenEnv === undefined) === (token.tokenFile === undefined)) {
    const problem =
      token.tokenEnv === undefined
        ? 'needs "tokenEnv" (an environment variable) or "tokenFile" (a file) holding the token'
        : 'set only one of "tokenEnv" and "tokenFile"';
    findings.error(at, problem);
    return undefined;
  }
  let text: string | undefined;
  let where: string;
  let keyPath: PathSegment[];
  let file: string | undefined;
  const missing = secretSink(findings, ctx.needed);
  if (token.tokenEnv !== undefined) {
    keyPath = [...at, 'tokenEnv'];
    where = `environment variable ${token.tokenEnv}`;
    text = ctx.env[token.tokenEnv];
    if (text === undefined) {
      missing(keyPath, `${where} is not set`);
      return undefined;
    }
  } else {
    keyPath = [...at, 'tokenFile'];
    const before = findings.count;
    file = path.resolve(ctx.dir, substitute(token.tokenFile ?? '', keyPath, ctx.env, substitutionSink(findings, missing), ctx.dir).value);
    if (findings.count !== before || missing.count > 0) return undefined;
    where = `file ${file}`;
    text = readSecretFile(file, keyPath, findings, missing);
    if (text === undefined) return undefined;
  }
  // Editors and `echo` end files with a newline; a bearer token never holds whitespace anyway.
  const secret = text.replace(/\s+$/, '');
  if (secret === '') findings.error(keyPath, `${where} is empty`);
  else if (!B64TOKEN.test(secret)) {
    findings.error(keyPath, `${where} holds characters a bearer token cannot carry (allowed: A-Z a-z 0-9 - . _ ~ + / and trailing =)`);
  } else if (secret.length < MIN_TOKEN_LENGTH) {
    findings.error(keyPath, `${where} holds a token shorter than ${MIN_TOKEN_LENGTH} characters; ${GENERATE}`);
  } else return { secret, source: where, file };
  return undefined;
}

/**
 * A one-line secret file's text: refused when missing, not a file or too large; warned about when
 * others may read it. `missing` hears of a file that is not there or not readable by this user
 * (a service's secret, readable only by the service, is no mistake of a command run by another).
 */
export function readSecretFile(file: string, at: readonly PathSegment[], findings: Findings, missing: SecretSink = secretSink(findings, true)): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (e) {
    const code = typeof e === 'object' && e !== null && 'code' in e ? String(e.code) : '';
    missing(at, code === 'EACCES' || code === 'EPERM' ? `cannot read ${file}: permission denied` : `no such file: ${file}`);
    return undefined;
  }
  if (!stat.isFile()) {
    findings.error(at, `not a regular file: ${file}`);
    return undefined;
  }
  if (stat.size > MAX_TOKEN_FILE_BYTES) {
    findings.error(at, `${file} is larger than ${MAX_TOKEN_FILE_BYTES} bytes; expected one line holding a token`);
    return undefined;
  }
  // Like ssh with private keys: a token others can read is a shared token; worth a warning, not a refusal.
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    findings.warn(at, `${file} is readable by other users (mode ${(stat.mode & 0o777).toString(8)}); chmod 600 it`);
  }
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = typeof e === 'object' && e !== null && 'code' in e ? String(e.code) : 'unreadable';
    if (code === 'EACCES' || code === 'EPERM') missing(at, `cannot read ${file}: permission denied`);
    else findings.error(at, `cannot read ${file}: ${code}`);
    return undefined;
  }
}
