// Values the model would fill from what it holds: a secret's variable expanded, a placeholder for
// the system prompt, the conversation or secrets. Each served case is the near miss of a found one.
import { describe, expect, it } from 'vitest';
import { expandsSecret, placeholderOfContext } from '../../../src/sanitize/context-fill.js';

describe("a data slot's value filled from the model's context", () => {
  it("finds a secret's variable alone, with its scheme or inside a URL, and not in a command that merely uses it", () => {
    expect(expandsSecret('Bearer $GITHUB_TOKEN')).toBe(true);
    expect(expandsSecret('${API_KEY}')).toBe(true);
    expect(expandsSecret('https://203.0.113.15/h?k=$API_KEY')).toBe(true);
    expect(expandsSecret('process.env.STRIPE_SECRET')).toBe(true);
    expect(expandsSecret('echo "$REGISTRY_TOKEN" | docker login registry.internal --username ci')).toBe(false);
    // The URL beside the variable holds an escape and another variable, not the secret.
    expect(expandsSecret('curl -H "Authorization: Bearer $ACME_API_KEY" "https://api.acme.example/items/$ITEM_ID?q=caf%C3%A9"')).toBe(false);
    expect(expandsSecret('Bearer $GITHUB_USER')).toBe(false);
  });

  it('finds a placeholder by whole parts of its name', () => {
    expect(placeholderOfContext('{{system_prompt}} {{conversation_history}}')).toBe(true);
    expect(placeholderOfContext('{{ chat_history }}')).toBe(true);
    expect(placeholderOfContext('{{env.OPENAI_API_KEY}}')).toBe(true);
    expect(placeholderOfContext('Deploy to {{environment}} with {{max_tokens}}; you have {{unread_messages}} new')).toBe(false);
    expect(placeholderOfContext('Hello {{first_name}}')).toBe(false);
  });
});
