// The resolved, frozen configuration every other module reads; produced only by config/load.ts.

import type { Secret } from './secret.js';
import type { RateLimitsConfig } from './rate-limits.js';
import type { StateConfig } from './state.js';
import type { CallLogConfig } from './call-log.js';
import type { TelemetryConfig } from './telemetry.js';

export type Isolation = 'shared' | 'session';

/**
 * The protocol era spoken with a child: `auto` probes with server/discover and falls back to
 * initialize on any other answer (the 2026-07-28 stdio rule); the others skip the probe.
 */
export type ChildProtocol = 'auto' | 'session' | 'stateless';

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
  readonly protocol: ChildProtocol;
  /** Per-request timeout towards this server, ms. */
  readonly timeoutMs: number;
  /**
   * Requests in flight to one instance at once; undefined: no cap but the connection's own bound.
   * Beyond it requests wait (up to timeoutMs) in a queue of `maxQueued`, and beyond that fail at once.
   */
  readonly maxConcurrent: number | undefined;
  readonly maxQueued: number;
  readonly disabled: boolean;
  readonly restart: RestartPolicy;
  /**
   * What the proxy answers when this server asks `roots/list`: absolute `file://` URIs from the
   * config (`roots`: paths), never a client's roots, so a client cannot widen a shared child's reach.
   */
  readonly roots: readonly string[];
  /** A changed tool definition is re-pinned silently instead of withheld until approved. */
  readonly acceptUpdates: boolean;
  /** Set for a remote server (`url`): reached over HTTP instead of spawned; `command` is then empty. */
  readonly remote?: RemoteConfig | undefined;
}

/** A server reached over HTTP: Streamable HTTP, or the legacy HTTP+SSE transport. */
export interface RemoteConfig {
  readonly url: string;
  /** Sent with every request to it; values often hold credentials, so they are secrets: never logged. */
  readonly headers: Readonly<Record<string, Secret>>;
  /** `auto`: Streamable HTTP, falling back to SSE when the server answers initialize with 4xx (transports.mdx, backwards compatibility). */
  readonly transport: 'auto' | 'http' | 'sse';
  /** PEM certificates trusted besides the system's (a private CA); verification itself is never off. */
  readonly ca: string | undefined;
  /** The proxy signs in to it as an OAuth client; tokens from `switchboard login` live in `store`. */
  readonly oauth?: RemoteOAuthConfig | undefined;
}

export interface RemoteOAuthConfig {
  readonly scope: string | undefined;
  /** A pre-registered client; undefined: dynamic client registration at the first login. */
  readonly clientId: string | undefined;
  readonly clientSecret: Secret | undefined;
  /** The file (mode 0600) holding the client registration and tokens. */
  readonly store: string;
}

/** Allow and deny globs over names (`*` any run, `?` one character); deny wins. */
export interface NameRule {
  /** `['*']` when the config gave no `allow`; `[]` allows nothing. */
  readonly allow: readonly string[];
  readonly deny: readonly string[];
}

/** A named view of the catalog (`profiles.<name>`): which tools, prompts and servers, and how many. */
export interface ProfileConfig {
  readonly name: string;
  /** Globs over namespaced tool names (`fs__read_*`), as emitted on the aggregate endpoint. */
  readonly tools: NameRule;
  /** Globs over namespaced prompt names. */
  readonly prompts: NameRule;
  /** Globs over server names (the keys under `mcpServers`). */
  readonly servers: NameRule;
  /** Globs over resource URIs and resource templates' `uriTemplate`. */
  readonly resources: NameRule;
  /** Most tools in the view (config order decides which), or undefined for no cap. */
  readonly maxTools: number | undefined;
  /** Most estimated model-context tokens of the view's tool definitions, or undefined for no cap. */
  readonly maxTokens: number | undefined;
  /** `search`: tools/list holds the search tools and `pinned`, the model finds the rest; undefined: not set (list). */
  readonly discovery: 'list' | 'search' | undefined;
  /** Globs over namespaced tool names a search-mode session lists in full. */
  readonly pinned: readonly string[];
  /** Globs over namespaced tool names that maxTools/maxTokens keep first, in this order. */
  readonly priority: readonly string[];
}

/** One team member's bearer token. */
export interface TokenConfig {
  readonly name: string;
  /**
   * The profile bounding this token's sessions: its own `profile`, else the top-level
   * `defaultProfile`, else undefined (the token sees everything).
   */
  readonly profile: string | undefined;
  /**
   * May read the operator's data (/metrics, /status.json, /readyz detail) and restart servers:
   * `admin: true`, or a token that sees everything (no profile of its own and no defaultProfile,
   * or `profile: null`). Operations data names every server, its errors and findings.
   */
  readonly admin: boolean;
  /** Where the value came from, for messages: `environment variable SWITCHBOARD_TOKEN_ALICE` or `file /abs/path`. */
  readonly source: string;
  /** The absolute path of its `tokenFile`, when it came from one: the daemon reloads when it changes. */
  readonly file: string | undefined;
  /** The token itself; serializes as `[redacted]`. Read it only to build the lookup table. */
  readonly secret: Secret;
}

/** Where the sanitizer keeps its log and pins, and whether it may withhold tools. */
export interface SanitizeConfig {
  /** Absolute path of the JSON-lines finding log. */
  readonly log: string;
  /** Absolute path of the first-seen tool hashes. */
  readonly pins: string;
  /** false: high-confidence findings neutralize or flag instead of withholding the tool. */
  readonly blocking: boolean;
  /** false: the learned second opinion (`learned-intent`) stays silent. */
  readonly learnedIntent: boolean;
  /** Bytes per log file before rotation, and rotated files kept. */
  readonly logMaxBytes: number;
  readonly logKeep: number;
}

export interface ListenConfig {
  readonly host: string;
  readonly port: number;
  /** Absolute paths of the PEM certificate (chain) and private key, checked readable and matching. */
  readonly tls: { readonly cert: string; readonly key: string } | undefined;
  /** Host header names (lower case, no port) accepted besides loopback names and `host` itself. */
  readonly allowedHosts: readonly string[];
  /**
   * `scheme://host[:port]` clients reach the proxy at, when that is not where it listens (a reverse
   * proxy in front): OAuth's resource metadata and default audience are built on it. Undefined:
   * the listen address is the public one.
   */
  readonly publicUrl: string | undefined;
}

/** `auth.oauth`: access tokens of one authorization server, verified as a resource server (RFC 9068, RFC 7662). */
export interface OAuthConfig {
  /** Exactly the `iss` its tokens carry, and where its metadata is discovered. */
  readonly issuer: string;
  /** Accepted `aud` values; undefined: the proxy's own URLs (RFC 8707 resource indicators). */
  readonly audience: readonly string[] | undefined;
  /** Undefined: the issuer metadata's `jwks_uri`. */
  readonly jwksUri: string | undefined;
  /** Scopes every token must carry; missing ones answer 403 insufficient_scope. */
  readonly requiredScopes: readonly string[];
  /** The claim whose values (a string or strings) choose the profile; undefined: every identity gets defaultProfile. */
  readonly profileClaim: string | undefined;
  /**
   * Claim value to profile name (undefined: sees everything), in the order written: the first
   * value the token carries wins. Values mapped nowhere fall back to defaultProfile.
   */
  readonly profiles: readonly { readonly value: string; readonly profile: string | undefined }[];
  /** Claim values that make an identity an operator (admin), whatever its profile. */
  readonly adminValues: readonly string[];
  /** RFC 7662 introspection for tokens that are not JWTs, with the proxy's client credentials. */
  readonly introspection: { readonly endpoint: string; readonly clientId: string; readonly clientSecret: Secret } | undefined;
  /** JWS algorithms accepted (asymmetric only). */
  readonly algorithms: readonly string[];
  readonly clockSkewSeconds: number;
  readonly jwksCooldownMs: number;
}

/** An `mcpServers` entry that was not started because the entry itself is unusable. */
export interface SkippedServer {
  readonly name: string;
  /** One line: the JSON path and the problem, as `--strict` would have refused it. */
  readonly reason: string;
  /** The entry has a `url`: a remote server (the status page says so). */
  readonly remote: boolean;
}

export interface SwitchboardConfig {
  /** Absolute path of the config file, or `<inline>` for configs built in code. */
  readonly file: string;
  /** Directory relative paths resolve against. */
  readonly dir: string;
  readonly listen: ListenConfig;
  /** Every configured server in file order, disabled ones included; skipped entries are not here. */
  readonly servers: readonly ServerConfig[];
  /**
   * Entries that could not be used (a remote `url`, a command not found, a bad field), each with
   * its reason: the rest of the file is served. Always empty when loaded with `strict`.
   */
  readonly skipped: readonly SkippedServer[];
  readonly namespace: { readonly separator: string; readonly maxLength: number };
  readonly limits: {
    /** Largest HTTP request body accepted, bytes. */
    readonly maxBodyBytes: number;
    /** Largest single line a child may print on stdout, bytes; longer lines are dropped and logged. */
    readonly maxLineBytes: number;
    /** Most client sessions held at once. */
    readonly maxSessions: number;
    /**
     * Most sessions one token holds at once; at the cap its least recently active idle session
     * makes room. Sessions without a token (auth off: one local user) are bounded by maxSessions only.
     */
    readonly maxSessionsPerIdentity: number;
    /** Time to receive a whole request, ms (not its response: a tool call may run for minutes). */
    readonly requestTimeoutMs: number;
    /** Time to receive a request's headers, ms. */
    readonly headersTimeoutMs: number;
    /** Open client connections at once; more are closed on arrival. */
    readonly maxConnections: number;
    /** Open connections from one non-loopback address; loopback clients are bounded by maxConnections only. */
    readonly maxConnectionsPerAddress: number;
    /** Items per page in list results sent to clients. */
    readonly pageSize: number;
    /** A session with no traffic for this long is closed, ms. */
    readonly sessionIdleMs: number;
    /** On SIGTERM/SIGINT, how long in-flight requests may finish before sessions close, ms. */
    readonly shutdownGraceMs: number;
  } & RateLimitsConfig;
  /** Origins allowed besides loopback ones (`http://localhost:*` style exact origins). */
  readonly allowedOrigins: readonly string[];
  /**
   * Profiles by name. The object has no prototype, so `profiles[name]` is undefined for any
   * unconfigured name, `constructor` and `__proto__` included.
   */
  readonly profiles: Readonly<Record<string, ProfileConfig>>;
  /**
   * The profile of sessions that bring no profile of their own: every session when auth is off,
   * and sessions of tokens without `profile`. Undefined: such sessions see everything.
   */
  readonly defaultProfile: string | undefined;
  /**
   * Static bearer tokens and OAuth access tokens, either or both; neither means auth is off
   * (allowed only when listening on loopback).
   */
  readonly auth: { readonly tokens: readonly TokenConfig[]; readonly oauth?: OAuthConfig | undefined };
  readonly sanitize: SanitizeConfig;
  /** Where pins are shared between instances (`state.redis`, else `limits.redis`); no Redis: the pin file alone. */
  readonly state: StateConfig;
  /** The call log, when configured (`callLog`). */
  readonly callLog: CallLogConfig | undefined;
  /** OTLP tracing (config/telemetry.ts); undefined: off, and no OpenTelemetry module is loaded. */
  readonly telemetry: TelemetryConfig | undefined;
  /** pino level for the daemon's own logs: fatal, error, warn, info, debug, trace or silent. */
  readonly logLevel: string;
  /**
   * This daemon's name among several behind one load balancer: every session id starts with it
   * (`<instance>.<random>`), so a request that reaches another instance is answered 404 at once
   * and a balancer can route on it. Default: derived from the host name and listen port.
   */
  readonly instance: string;
  /** Non-fatal findings (unknown keys and the like), each one line naming file and JSON path. */
  readonly warnings: readonly string[];
  /** Absolute paths of the files its `${file:PATH}` references name: the daemon reloads when one changes. */
  readonly secretFiles?: readonly string[];
}
