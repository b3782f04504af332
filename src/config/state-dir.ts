// Where the daemon keeps what it learns between runs (pins, the sanitization log, sign-ins).
import os from 'node:os';
import path from 'node:path';

/** $XDG_STATE_HOME/mcp-switchboard, else ~/.local/state/mcp-switchboard (XDG Base Directory spec). */
export function stateDir(env: NodeJS.ProcessEnv): string {
  const base = env['XDG_STATE_HOME'] || path.join(env['HOME'] || os.homedir(), '.local', 'state');
  return path.join(base, 'mcp-switchboard');
}
