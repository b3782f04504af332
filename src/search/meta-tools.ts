// The two tools a search-mode session lists instead of the catalog: find a tool, call a tool. Their
// definitions say what is behind them (servers and what each does), because agents skip a search
// tool that does not say what it can find.
import type { JsonObject } from '../jsonrpc/messages.js';
import { words } from './words.js';

import { RESERVED_ALIAS } from '../config/schema.js';

/** Under the alias no server may use (config/servers.ts refuses it). */
export const FIND_TOOLS = `${RESERVED_ALIAS}__find_tools`;
export const CALL_TOOL = `${RESERVED_ALIAS}__call_tool`;

/** Matches find_tools returns when the request does not say (`limit`), and at most. */
export const DEFAULT_FIND_LIMIT = 5;
export const MAX_FIND_LIMIT = 20;
/** Intents one find_tools may search at once, and keywords it may add. */
export const MAX_QUERIES = 8;
export const MAX_KEYWORDS = 20;
/** Tools a server's listing in brief shows at most. */
export const MAX_BROWSE = 100;
/** Characters of the server summary in find_tools' description (~300 tokens). */
const MAX_SUMMARY_CHARS = 1_200;
/** Words shown per server: enough to say what it is for. */
const WORDS_PER_SERVER = 6;

/** Verbs and filler every server's tool names share; they say nothing about what a server is for. */
const COMMON = new Set(
  'get list create update delete remove add set search find read write fetch run make new edit show check query info all by to of the and for from with in on a an'.split(' '),
);

export interface ServerSummary {
  readonly name: string;
  /** The names of its tools in the view, as the server wrote them. */
  readonly toolNames: readonly string[];
  /** Not listed yet (in its first start): named in the directory so the model knows to search again. */
  readonly starting?: boolean;
}

/** "fs (file, directory, tree, media)": the words its tool names use most, common verbs aside. */
function describeServer(server: ServerSummary): string {
  if (server.starting === true) return `${server.name} (starting)`;
  const counts = new Map<string, number>();
  for (const name of server.toolNames) {
    for (const word of new Set(words(name))) {
      if (word.length < 3 || COMMON.has(word)) continue;
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, WORDS_PER_SERVER).map(([w]) => w);
  return top.length === 0 ? server.name : `${server.name} (${top.join(', ')})`;
}

/** The two definitions for a view of these servers and this many tools. */
export function metaTools(servers: readonly ServerSummary[], toolCount: number): [JsonObject, JsonObject] {
  let summary = '';
  let shown = 0;
  for (const server of servers) {
    const part = describeServer(server);
    if (summary.length + part.length + 2 > MAX_SUMMARY_CHARS) break;
    summary += (summary === '' ? '' : '; ') + part;
    shown += 1;
  }
  if (shown < servers.length) summary += `; and ${servers.length - shown} more servers`;
  const up = servers.filter((server) => server.starting !== true).length;
  const starting = servers.length - up;
  const find: JsonObject = {
    name: FIND_TOOLS,
    title: 'Find tools',
    description:
      `Search ${toolCount} tools of ${up} server${up === 1 ? '' : 's'}${starting > 0 ? ` (${starting} more starting)` : ''} by what you want to do, in plain words, and get the best matches ` +
      `with their names and input schemas. Call a match with ${CALL_TOOL} (or directly, once your tool list shows it). ` +
      `Use this before saying a tool is not available. How to search: say the action and its object ("create a calendar event", ` +
      `not "calendar"), add other words a tool might use in "keywords" (synonyms, the product's name), and for a task of several ` +
      `steps give one short query per step in "queries". To see everything a server offers, give only "server". Servers: ${summary}.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What you want to do, e.g. "list open pull requests" or "read a file"' },
        keywords: { type: 'array', items: { type: 'string' }, maxItems: MAX_KEYWORDS, description: 'More words the tool may use: synonyms, the product or service name, the kind of object' },
        queries: { type: 'array', items: { type: 'string' }, maxItems: MAX_QUERIES, description: 'One query per step of a task, instead of "query"; the best tool of each step comes first' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_FIND_LIMIT, description: `How many matches (default ${DEFAULT_FIND_LIMIT}, or 3 per query with "queries")` },
        server: { type: 'string', description: 'Only tools of this server; alone, lists all its tools in brief' },
      },
    },
    outputSchema: {
      type: 'object',
      properties: {
        tools: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              server: { type: 'string' },
              title: { type: 'string' },
              description: { type: 'string' },
              inputSchema: { type: 'object' },
            },
            // A server's listing in brief has no schemas: search for the tool to get its schema.
            required: ['name', 'server'],
          },
        },
        // Servers of the view a search could not answer for: not listed yet, or down (search/pending-note.ts).
        starting: { type: 'array', items: { type: 'string' } },
        down: { type: 'array', items: { type: 'string' } },
      },
      required: ['tools'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
  const call: JsonObject = {
    name: CALL_TOOL,
    title: 'Call a tool',
    description: `Call a tool that ${FIND_TOOLS} found, by its name, with arguments that follow its input schema. The result is the tool's own.`,
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: `The tool's name as ${FIND_TOOLS} gave it` },
        arguments: { type: 'object', description: "The tool's arguments" },
      },
      required: ['name'],
    },
  };
  return [find, call];
}
