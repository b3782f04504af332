// Shared builders for the sanitizer tests.
import { CatalogIndex, sanitizeEntity, type Finding, type SanitizeContext } from '../../../src/sanitize/index.js';
import { toolNameWords } from '../../../src/sanitize/names.js';

export const INDEX = new CatalogIndex([
  { server: 'mail', aliases: ['gmail'], tools: ['send_email', 'read_inbox', 'list_labels'] },
  { server: 'shell', tools: ['run_command'] },
  { server: 'github', tools: ['create_issue', 'search_code'] },
  { server: 'calc', tools: ['add', 'multiply'] },
]);

export const CTX: SanitizeContext = { server: 'calc', ownToolNames: new Set(['add', 'multiply']), otherServers: INDEX };

export function tool(description: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'add', description, inputSchema: { type: 'object', properties: { a: { type: 'number' } } }, ...extra };
}

export function sanitizeTool(description: string, extra: Record<string, unknown> = {}, ctx: SanitizeContext = CTX) {
  return sanitizeEntity('tool', tool(description, extra), ctx);
}

export function rules(findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.rule}:${f.action}`);
}

export function ruleIds(findings: readonly Finding[]): string[] {
  return [...new Set(findings.map((f) => f.rule))].sort();
}

/** Unicode tag characters spelling `ascii`. */
export function tags(ascii: string): string {
  return [...ascii].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
}

/** The context sanitize.ts gives the rules on tools named by what they do: names lower case, their words, the parameters. */
export function nameContext(names: string[], params: string[] = []): { own: Set<string>; ownWords: Set<string>; params: Set<string> } {
  return { own: new Set(names.map((n) => n.toLowerCase())), ownWords: new Set(names.flatMap(toolNameWords)), params: new Set(params) };
}
