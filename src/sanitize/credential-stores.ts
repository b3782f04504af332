// A credential file named in a sentence in another language than English. Real tools almost never
// name one (one public key among the 3,000 real tool definitions this was written against); a bus
// timetable's tool that names `~/.aws/credentials` or `/etc/shadow` has no reason to but to have the
// model read it, so where the grammar is not read the verb is not needed (in English the order
// around the path is judged by directives.ts, and "reads ~/.aws/credentials to sign requests" is a
// tool describing itself). A tool whose subject is the store (an AWS server naming its credentials
// file, an SSH server its keys) may name it: the subject is read from the words of the server's name
// and its tools' names, a word counting also as the start of one (`kubectx`).
import { NEGATED } from './directive-lexicon.js';
import { ownWords, type DirectiveContext } from './tool-refs.js';

interface Store {
  readonly pattern: RegExp;
  /** Words of names that make the store the server's own subject; `x*` also counts as the start of a word (`kube*`: `kubectx`). */
  readonly subject: readonly string[];
}

// Read on the skeleton reading (lower case, NFKC), every match of each. A public key (`.pub`) is what
// users hand out. Subjects are product names only: a word any tool may carry (`history`, `browser`,
// `password`, `cluster`) would let a bus timetable that names one read the store.
const STORES: readonly Store[] = [
  { pattern: /\.aws\/(?:credentials|sso\/cache)/g, subject: ['aws*', 'iam', 's3'] },
  { pattern: /\.ssh\/(?![^\s`'"]{0,64}\.pub\b)|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?![\w-]{0,32}\.pub\b)/g, subject: ['ssh*', 'sftp', 'scp'] },
  { pattern: /\.git-credentials\b|\.config\/gh\/hosts/g, subject: ['git*', 'gh'] },
  { pattern: /(?<=^|[\s`'"(/~])\.netrc\b/g, subject: ['netrc', 'ftp'] },
  { pattern: /(?<=^|[\s`'"(/~])\.pgpass\b/g, subject: ['postgres*', 'pg', 'psql'] },
  { pattern: /\.docker\/config\.json/g, subject: ['docker*', 'podman'] },
  { pattern: /\.kube\/config\b/g, subject: ['kube*', 'k8s'] },
  { pattern: /\.(?:bash|zsh)_history\b/g, subject: ['shell*', 'terminal*', 'bash', 'zsh'] },
  { pattern: /(?<=^|[\s`'"(/~])\.(?:gnupg|password-store)\b/g, subject: ['gpg', 'gnupg', 'keyring'] },
  { pattern: /(?<=^|[\s`'"(/~])\.(?:npmrc|pypirc)\b/g, subject: ['npm', 'pypi'] },
  { pattern: /application_default_credentials|\.config\/gcloud\//g, subject: ['gcloud', 'gcp', 'bigquery', 'gcs'] },
  { pattern: /(?<=^|[\s`'"(/~])\.azure\//g, subject: ['azure*', 'az'] },
  { pattern: /\/etc\/(?:shadow|sudoers|gshadow)\b/g, subject: ['shadow', 'sudo*', 'passwd', 'hardening'] },
  { pattern: /\blogins\.json\b|\bkey4\.db\b/g, subject: ['firefox'] },
];

/** Words right before or after a store that keep it out of reach or report it: "never reads", "access to ~/.ssh is denied". */
const KEPT_OUT = /\b(?:den(?:y|ies|ied)|block(?:s|ed)?|exclud(?:e|es|ed|ing)|protect(?:s|ed)?|redact(?:s|ed)?|refus(?:e|es|ed)|forbidden|outside the allowed)\b/;
/** How far from the path those words count, characters. */
const NEAR = 40;

export interface NamedStore {
  readonly index: number;
  readonly length: number;
}

/** The first credential file a sentence of the skeleton reading names outside the server's own subject, or null. */
export function namedCredentialStore(t: string, ctx: DirectiveContext): NamedStore | null {
  for (const store of STORES) {
    store.pattern.lastIndex = 0;
    for (let m = store.pattern.exec(t); m !== null; m = store.pattern.exec(t)) {
      // The words before the path token (`~/`, a quote and the like are part of it).
      const token = t.lastIndexOf(' ', m.index) + 1;
      if (NEGATED.test(t.slice(Math.max(0, token - 30), token))) continue;
      if (KEPT_OUT.test(t.slice(Math.max(0, m.index - NEAR), m.index + m[0].length + NEAR))) continue;
      if (ownSubject(store, ctx)) break;
      return { index: m.index, length: m[0].length };
    }
  }
  return null;
}

/** The store is what the server is for: a word of its name or of its tools' names (not of the parameters, which any tool names freely). */
function ownSubject(store: Store, ctx: DirectiveContext): boolean {
  const named = (word: string): boolean => store.subject.some((w) => (w.endsWith('*') ? word.startsWith(w.slice(0, -1)) : word === w));
  for (const w of ownWords(ctx.own)) if (named(w)) return true;
  for (const w of ctx.server.toLowerCase().split(/[^a-z0-9]+/)) if (named(w)) return true;
  return false;
}
