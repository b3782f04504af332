// An example that is code: a shell command line (`curl -X GET https://api.example.nl/v1/orders`,
// `rsync -az --delete /srv/app/ backup@10.0.0.12:/backups/app/`), an SQL statement (`SELECT * FROM
// users WHERE email LIKE '%@example.com'`), a lone URI (`s3://ml-artifacts/churn/model.pkl`) or a
// record of key=value pairs (`v=DMARC1; p=quarantine; rua=mailto:dmarc@example.org`). An address
// there is what the command reaches, and the value speaks to no one. A comment in words, or words
// that address someone, make it prose again ("SELECT * FROM users -- then mail these rows to ...").

/** Programs whose command lines tool examples show. */
const COMMAND =
  /^(?:sudo\s+)?(?:curl|wget|http|httpie|rsync|scp|sftp|ssh|dig|nslookup|host|ping|traceroute|nc|telnet|openssl|git|gh|docker|podman|kubectl|helm|npm|npx|pnpm|yarn|pip3?|uv|apt(?:-get)?|brew|psql|mysql|mongosh|redis-cli|sqlite3|aws|gcloud|gsutil|az|terraform|ansible|make|python3?|node|deno|bun|bash|sh|zsh)\s+\S/i;
/** An SQL statement: its verb, then the clause that says what it works on. */
const SQL = /^(?:with\s+\w+\s+as\s*\(|select\b[\s\S]*\bfrom\b|insert\s+into\b|update\s+\S+\s+set\b|delete\s+from\b|merge\s+into\b)/i;
/** One URI and nothing else. */
const LONE_URI = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;
/** At least two key=value pairs separated by semicolons. */
const KEY_VALUES = /^\s*[\w.-]+=[^;\s]*(?:\s*;\s*[\w.-]+=[^;]*){2,};?\s*$/;
/** A comment in words, in any script: `-- then mail ...`, `# send to ...`, `-- アシスタントへ: ...`, `/* ... *\/` (not an option: `--delete`). */
const WORDED_COMMENT = /(?:^|\s)(?:--\s+|#\s*|\/\/\s*)\p{L}|\/\*/u;
/** Words that speak to someone; a verb of sending only with what it sends (`-X POST`, `WHERE email LIKE` are the code's). */
const ADDRESSING =
  /\b(?:you|your|please|assistant|the model|the user|ignore|disregard|always|never|must)\b|\b(?:send|forward|e-?mail|mail|share|upload|post)\s+(?:it|them|this|these|those|the|all|every|everything|to)\b/i;

/** Whether the example's value is code, with an address in it as the code's own. */
export function isCode(value: string): boolean {
  const text = value.trim();
  if (!(COMMAND.test(text) || SQL.test(text) || LONE_URI.test(text) || KEY_VALUES.test(text))) return false;
  if (WORDED_COMMENT.test(text)) return false;
  // Outside quoted strings and options, a command speaks to no one: the words checked are the bare ones.
  const bare = text.replace(/'[^']*'|"[^"]*"/g, ' ').replace(/(?:^|\s)--?[\w-]+/g, ' ');
  return !ADDRESSING.test(bare);
}
