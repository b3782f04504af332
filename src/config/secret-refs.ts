// `${file:PATH}` and `${credential:NAME}`: config values read from a file, or from systemd's
// credentials directory (LoadCredential=), so a secret never has to be written into the config.
import fs from 'node:fs';
import path from 'node:path';

/** Bytes; a secret is a token or a key, and this keeps a mistaken path (a log, /dev/zero) cheap. */
export const MAX_SECRET_FILE_BYTES = 1024 * 1024;

/** systemd refuses credential names with a slash, and `.`/`..` would leave the directory. */
const CREDENTIAL_NAME = /^[A-Za-z0-9_@:+.-]{1,255}$/;

export type SecretRefKind = 'file' | 'credential';

/** The value, or why it is not available: `unavailable` for a missing file (an environment matter), else a mistake in the config. */
export type SecretRead =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly problem: string; readonly unavailable: boolean };

/**
 * Reads one reference. Relative file paths resolve against the config file's folder, `~/` against
 * HOME, as the daemon (started from anywhere, or by systemd) must find the same file. One trailing
 * newline is dropped: editors and `echo` add it, and no secret ends with one. Problems name the
 * file or credential, never its content.
 */
export function readSecretRef(kind: SecretRefKind, ref: string, dir: string, env: NodeJS.ProcessEnv): SecretRead {
  let file: string;
  if (kind === 'credential') {
    if (!CREDENTIAL_NAME.test(ref) || ref === '.' || ref === '..') {
      return { ok: false, unavailable: false, problem: `\${credential:${ref}}: a credential name is letters, digits and "_@:+.-", without "/"` };
    }
    const where = env['CREDENTIALS_DIRECTORY'];
    if (where === undefined || where === '') {
      return {
        ok: false,
        unavailable: true,
        problem: `credential ${ref} is not available: CREDENTIALS_DIRECTORY is not set (systemd sets it for a unit with LoadCredential=${ref}:PATH; see switchboard service install --credential)`,
      };
    }
    file = path.join(where, ref);
  } else {
    if (ref.trim() === '') return { ok: false, unavailable: false, problem: '${file:} names no file: write ${file:PATH}' };
    file = secretFilePath(ref, dir, env);
  }
  const what = kind === 'credential' ? `credential ${ref} (${file})` : `secret file ${file}`;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    return { ok: false, unavailable: true, problem: `${what}: ${errorText(error)}` };
  }
  if (!stat.isFile()) return { ok: false, unavailable: false, problem: `${what} is not a regular file` };
  if (stat.size > MAX_SECRET_FILE_BYTES) return { ok: false, unavailable: false, problem: `${what} is larger than ${MAX_SECRET_FILE_BYTES} bytes` };
  try {
    return { ok: true, value: fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '') };
  } catch (error) {
    return { ok: false, unavailable: true, problem: `${what}: ${errorText(error)}` };
  }
}

/** Where `${file:PATH}` reads: `~/` under HOME, else relative to the config's folder. */
export function secretFilePath(ref: string, dir: string, env: NodeJS.ProcessEnv): string {
  const home = env['HOME'];
  return ref.startsWith('~/') && home !== undefined && home !== '' ? path.join(home, ref.slice(2)) : path.resolve(dir, ref);
}

function errorText(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return typeof code === 'string' ? code : 'unreadable';
}
