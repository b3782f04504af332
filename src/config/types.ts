// The resolved, frozen configuration every other module reads; produced only by config/load.ts.

export type Isolation = 'shared' | 'session';

export interface RestartPolicy {
  /** First restart delay after a crash, ms; doubles per consecutive failure. */
  readonly initialDelayMs: number;
  /** Cap of the backoff, ms. */
  readonly maxDelayMs: number;
}

export interface ServerConfig {
  /** The key under `mcpServers`. */
  readonly name: string;
  /** Prefix of this server's tool and prompt names: the `alias` field, else the key made name-safe. */
  readonly alias: string;
  /** Absolute path of the executable, resolved through the config dir's node_modules/.bin, then PATH. */
  readonly command: string;
  /** The command as written in the config, for messages. */
  readonly commandAsWritten: string;
  readonly args: readonly string[];
  /** Exactly the environment the child gets: the safe default set plus the configured `env`. */
  readonly env: Readonly<Record<string, string>>;
  /** Absolute working directory (config `cwd` resolved against the config dir; default the config dir). */
  readonly cwd: string;
  readonly isolation: Isolation;
  /** Per-request timeout towards this server, ms. */
  readonly timeoutMs: number;
  readonly disabled: boolean;
  readonly restart: RestartPolicy;
  /**
   * What the proxy answers when this server asks `roots/list`: absolute `file://` URIs from the
   * config (`roots`: paths), never a client's roots, so a client cannot widen a shared child's reach.
   */
  readonly roots: readonly string[];
}

export interface SwitchboardConfig {
  /** Absolute path of the config file, or `<inline>` for configs built in code. */
  readonly file: string;
  /** Directory relative paths resolve against. */
  readonly dir: string;
  readonly listen: { readonly host: string; readonly port: number };
  /** Every configured server in file order, disabled ones included. */
  readonly servers: readonly ServerConfig[];
  readonly namespace: { readonly separator: string; readonly maxLength: number };
  readonly limits: {
    /** Largest HTTP request body accepted, bytes. */
    readonly maxBodyBytes: number;
    /** Largest single line a child may print on stdout, bytes; longer lines are dropped and logged. */
    readonly maxLineBytes: number;
    /** Most client sessions held at once. */
    readonly maxSessions: number;
    /** Items per page in list results sent to clients. */
    readonly pageSize: number;
    /** A session with no traffic for this long is closed, ms. */
    readonly sessionIdleMs: number;
  };
  /** Origins allowed besides loopback ones (`http://localhost:*` style exact origins). */
  readonly allowedOrigins: readonly string[];
  /** Config sections owned by later features, kept verbatim (validated as objects only). */
  readonly profiles: Readonly<Record<string, unknown>>;
  readonly auth: Readonly<Record<string, unknown>>;
  readonly sanitize: Readonly<Record<string, unknown>>;
  /** pino level for the daemon's own logs: fatal, error, warn, info, debug, trace or silent. */
  readonly logLevel: string;
  /** Non-fatal findings (unknown keys and the like), each one line naming file and JSON path. */
  readonly warnings: readonly string[];
}
