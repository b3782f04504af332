// What a request wants done, and what a tool does, as one of a few actions: requests say "add a
// row", "purge the records", "who's on the team"; tool names say create_record, delete_many,
// list_users. Matching the action is what plain word overlap misses most (measured on the
// benchmark's tune split).
import { words } from './words.js';

export type Action = 'create' | 'delete' | 'update' | 'list' | 'search' | 'get' | 'send' | 'run';

/** Words that name an action, whether a person writes them or a tool name starts with them. */
const ACTION_WORDS: Readonly<Record<Action, readonly string[]>> = {
  create: ['create', 'add', 'new', 'make', 'open', 'file', 'write', 'insert', 'register', 'start', 'build', 'set up', 'setup', 'provision', 'spin', 'generate', 'post', 'log', 'upsert', 'compose', 'draft'],
  delete: ['delete', 'remove', 'drop', 'purge', 'erase', 'destroy', 'clear', 'wipe', 'cancel', 'uninstall', 'kill', 'discard', 'trash'],
  update: ['update', 'change', 'edit', 'modify', 'set', 'rename', 'patch', 'move', 'mark', 'assign', 'turn', 'switch', 'replace', 'toggle', 'enable', 'disable', 'archive', 'close'],
  list: ['list', 'show', 'all', 'which', 'enumerate', 'browse', 'who', 'everyone', 'everybody', 'overview'],
  search: ['search', 'find', 'look', 'lookup', 'query', 'filter', 'locate', 'where', 'mentioning', 'about'],
  get: ['get', 'read', 'fetch', 'retrieve', 'view', 'details', 'describe', 'info', 'what', 'give', 'pull', 'grab', 'download', 'export'],
  send: ['send', 'tell', 'notify', 'message', 'text', 'reply', 'broadcast', 'push', 'email', 'dm', 'ping', 'call'],
  run: ['run', 'execute', 'trigger', 'deploy', 'rerun', 'invoke', 'launch', 'apply', 'install', 'evaluate'],
};

const ACTION_OF_WORD = new Map<string, Action>();
for (const [action, list] of Object.entries(ACTION_WORDS) as Array<[Action, readonly string[]]>) {
  for (const word of list) if (!ACTION_OF_WORD.has(word)) ACTION_OF_WORD.set(word, action);
}

/** The action a tool's name starts with (`create_issue`, `listPullRequests`, `API-post-search`), if any. */
export function toolAction(name: string): Action | undefined {
  for (const word of words(name).slice(0, 3)) {
    const action = ACTION_OF_WORD.get(word);
    if (action !== undefined) return action;
  }
  return undefined;
}

/** The action a request asks for: its first word that names one. */
export function requestAction(query: string): Action | undefined {
  for (const word of words(query)) {
    const action = ACTION_OF_WORD.get(word);
    if (action !== undefined) return action;
  }
  return undefined;
}
