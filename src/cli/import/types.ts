// The shapes `switchboard import` passes between its steps: where a server was found, what of it
// can be carried into the switchboard's config, and what cannot (with why).

export type ClientId = 'claude-desktop' | 'claude-code' | 'cursor' | 'vscode' | 'windsurf' | 'codex' | 'zed' | 'gemini';

export const CLIENT_IDS: readonly ClientId[] = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf', 'codex', 'zed', 'gemini'];

/** How a file lays out its servers; a client may use several (Claude Code: ~/.claude.json and .mcp.json). */
export type FormatId = 'mcpServers' | 'claude-code' | 'vscode' | 'vscode-settings' | 'windsurf' | 'codex' | 'zed' | 'gemini';

/** One config file a client reads. */
export interface Source {
  readonly client: ClientId;
  readonly file: string;
  readonly format: FormatId;
  /** The folder a project-level file belongs to (`${workspaceFolder}`), undefined for a user-level file. */
  readonly project?: string;
}

/** A server entry as a client wrote it, before anything is carried over. */
export interface FoundServer {
  readonly source: Source;
  readonly name: string;
  /** The entry itself (for Zed and Codex already in the common `command/args/env/url` shape). */
  readonly entry: Readonly<Record<string, unknown>>;
  /** Fields set by the format reader that the entry cannot carry, with why. */
  readonly notes: readonly string[];
}

/** A server entry in the switchboard's shape, values as the client had them (secrets not yet moved). */
export interface CarriedServer {
  readonly found: FoundServer;
  readonly entry: Record<string, unknown>;
  /** What was left behind, one line each (`"autoApprove" is a Cursor setting ...`). */
  readonly notes: string[];
  /** Values that must be supplied by hand: written as `${file:...}` to a secrets file that does not exist yet. */
  readonly prompts: { readonly at: readonly (string | number)[]; readonly why: string; readonly ref: string }[];
}

/** A problem with a source file as a whole: unreadable or unparsable. Its servers are not imported. */
export interface SourceProblem {
  readonly source: Source;
  readonly problem: string;
}
