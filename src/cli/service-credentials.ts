// `service install --credential NAME=PATH`: the unit's LoadCredential= lines, and a config check
// that sees the credentials as the service will (a directory like systemd's $CREDENTIALS_DIRECTORY).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from './flags.js';

export interface Credential {
  readonly name: string;
  readonly path: string;
}

/** systemd's credential names: no "/", not "." or "..". */
const NAME = /^[A-Za-z0-9_@:+.-]{1,255}$/;

/** `NAME=PATH` flags as credentials; the path made absolute (a unit has no working directory to resolve it against). */
export function parseCredentials(flags: readonly string[] | undefined): Credential[] {
  const out: Credential[] = [];
  for (const flag of flags ?? []) {
    const eq = flag.indexOf('=');
    const name = eq === -1 ? '' : flag.slice(0, eq);
    const file = eq === -1 ? '' : flag.slice(eq + 1);
    if (!NAME.test(name) || name === '.' || name === '..' || file === '') {
      throw new UsageError(`--credential expects NAME=PATH (NAME of letters, digits and "_@:+.-"), got "${flag}"`);
    }
    // LoadCredential= takes the rest of the line verbatim: whitespace or a control character would change it.
    if (/[\s\u0000-\u001f\u007f"'\\]/.test(file)) throw new UsageError(`--credential ${name}: the path holds a space, quote or control character, which LoadCredential= cannot carry`);
    if (out.some((c) => c.name === name)) throw new UsageError(`--credential ${name} is given twice`);
    out.push({ name, path: path.resolve(file) });
  }
  return out;
}

/** Names in the config's `${credential:NAME}` references, in the order written. */
export function credentialsRead(configText: string): string[] {
  const names = new Set<string>();
  for (const match of configText.matchAll(/\$\$\{|\$\{credential:([^}]*)\}/g)) if (match[1] !== undefined) names.add(match[1]);
  return [...names];
}

/**
 * Runs `check` with the environment the service will have: a temporary credentials directory
 * holding a link per credential, as systemd's holds a copy. Refuses a credential the config reads
 * but the command line does not give, before anything is written.
 */
export function withCredentials<T>(configText: string, credentials: readonly Credential[], env: NodeJS.ProcessEnv, check: (env: NodeJS.ProcessEnv) => T, warn: (message: string) => void): T {
  const read = credentialsRead(configText);
  const missing = read.filter((name) => !credentials.some((c) => c.name === name));
  if (missing.length > 0) {
    throw new UsageError(`the config reads \${credential:${missing[0]}}: pass --credential ${missing[0]}=PATH (the file holding it)${missing.length > 1 ? `, and likewise for ${missing.slice(1).join(', ')}` : ''}`);
  }
  for (const c of credentials) if (!read.includes(c.name)) warn(`--credential ${c.name} is not read by the config (no \${credential:${c.name}} in it)`);
  if (read.length === 0) return check(env);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-credentials-'));
  try {
    for (const c of credentials) fs.symlinkSync(c.path, path.join(dir, c.name));
    return check({ ...env, CREDENTIALS_DIRECTORY: dir });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
