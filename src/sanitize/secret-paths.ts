// Paths as data: which files hold secrets, and which parameters take a path. The data-slot rules and
// the learned second opinion judge a lone path by these same two lists, so what one serves as data
// the other does not withhold for the same reason, and a secret store is never data to either.
import { toolNameWords } from './names.js';

/**
 * Files that hold credentials or keys. A public key (`id_ed25519.pub`) is what a user hands out; the
 * private one is the secret. Bounded lookahead: hostile values are long.
 */
export const SECRET_STORE = new RegExp(
  [
    'id_(?:rsa|dsa|ecdsa|ed25519)(?![\\w-]{0,32}\\.pub\\b)', '\\.ssh\\/(?!\\S{0,64}\\.pub\\b)', '\\.aws\\/(?:credentials|sso)', 'application_default_credentials',
    '\\.config\\/gh\\/hosts', '\\.azure\\/', '\\.terraform\\.d\\/credentials', 'keyrings?\\/', 'logins\\.json', 'rclone\\.conf', '\\/etc\\/shadow',
    'git-credentials', '\\.netrc', '\\.pgpass', '\\.npmrc', '\\.pypirc', '\\.gnupg', '\\.password-store', 'credential', 'secret', 'token', 'password', 'private',
  ].join('|'),
  'i',
);

/** Words of a parameter's name that say it takes a path, in the languages parameter names are written in. */
const PATH_WORD =
  /^(?:path|paths|file|files|filename|filepath|dir|dirs|directory|folder|config|cfg|caminho|ruta|chemin|percorso|pfad|datei|fichier|archivo|arquivo|bestand|sciezka|plik|cesta|soubor|dosya|berkas|jalur|polku|tiedosto)$/;

/** Whether a parameter's name says it takes a path: `config_path`, `outDir`, `caminho` (not `profile`, `redirect`). */
export function takesPath(parameter: string): boolean {
  return toolNameWords(parameter).some((w) => PATH_WORD.test(w));
}
