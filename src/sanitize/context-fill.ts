// Data slots whose value the model would fill from what it holds rather than from the user: a
// secret's variable expanded (`Bearer $GITHUB_TOKEN`) and a template placeholder for the system
// prompt, the conversation or secrets (`{{system_prompt}}`). data-slots.ts asks these of every
// default, const, enum member and example. Both read match by match, in time linear in the value.

/** `$GITHUB_TOKEN`, `${API_KEY}`, `%DB_PASSWORD%`, `process.env.STRIPE_SECRET`, `os.environ["AWS_SECRET_ACCESS_KEY"]`. */
const EXPANDED_SECRET_G = /(?:\$\{?|%|\bprocess\.env\.|\bos\.environ\[["']?|\benv\.)[A-Z][A-Z0-9_]{0,64}(?:TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIALS?)\b/g;

/**
 * The value is a secret's expansion, alone or with its scheme (`Bearer $GITHUB_TOKEN`), or inside a
 * URL (`https://host/h?k=$API_KEY`). A shell example that uses one among other words (`echo
 * "$REGISTRY_TOKEN" | docker login ...`) documents the vendor's own variable. Read match by match:
 * each expansion's own whitespace-delimited token says whether it sits in a URL.
 */
export function expandsSecret(value: string): boolean {
  let found = false;
  EXPANDED_SECRET_G.lastIndex = 0;
  for (let m = EXPANDED_SECRET_G.exec(value); m !== null; m = EXPANDED_SECRET_G.exec(value)) {
    found = true;
    if (tokenBefore(value, m.index).includes('://')) return true;
  }
  if (!found) return false;
  EXPANDED_SECRET_G.lastIndex = 0;
  return value.replace(EXPANDED_SECRET_G, ' ').trim().split(/\s+/).filter((w) => w !== '' && w !== '}').length <= 1;
}

/** The part of the whitespace-delimited token that ends at `at` (at most a URL's length back). */
function tokenBefore(value: string, at: number): string {
  let from = at;
  while (from > 0 && at - from < 2048 && !/\s/.test(value[from - 1]!)) from--;
  return value.slice(from, at);
}

/** `{{ name }}`: a template's placeholder, its name read apart. */
const PLACEHOLDER_G = /\{\{\s{0,8}([\w.]{1,64})\s{0,8}\}\}/g;
/** Names of what the model holds rather than the user's data: whole parts of the name, `system_prompt`, `chat_history`. */
const CONTEXT_PART = /^(?:instructions|conversation|transcript|secrets?|passwords?|apikeys?)$/;
const CONTEXT_PAIR = /^(?:system prompt|system message|chat history|conversation history|api keys?|all messages|chat messages)$/;

/**
 * `{{system_prompt}}`, `{{ conversation_history }}`, `{{env.API_KEY}}`: a template the model would fill
 * from its context. `{{environment}}`, `{{max_tokens}}` and `{{unread_messages}}` are the user's data.
 */
export function placeholderOfContext(value: string): boolean {
  for (const m of value.matchAll(PLACEHOLDER_G)) {
    const parts = m[1]!.toLowerCase().split(/[._]+/).filter((p) => p !== '');
    if (parts[0] === 'env' && parts.length > 1) return true;
    if (parts.some((p) => CONTEXT_PART.test(p))) return true;
    for (let i = 0; i + 1 < parts.length; i++) if (CONTEXT_PAIR.test(`${parts[i]} ${parts[i + 1]}`)) return true;
  }
  return false;
}
