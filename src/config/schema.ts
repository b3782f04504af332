// Shape and defaults of proxy.config.json, checked on the raw file text before `${VAR}` substitution,
// so a value echoed in an error is what the user wrote, never what a variable expanded to.

import { z } from 'zod';
import { rateLimitFields } from './rate-limits.js';
import { callLogObject } from './call-log.js';
import { stateObject } from './state.js';

/** setTimeout treats larger delays as 1 ms, so every duration is capped here. */
export const MAX_TIMER_MS = 2_147_483_647;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const ALIAS_PATTERN = /^[A-Za-z0-9_-]{1,24}$/;
/** The proxy's own tools (search mode: switchboard__find_tools, switchboard__call_tool) live under this alias. */
export const RESERVED_ALIAS = 'switchboard';
export const SEPARATOR_PATTERN = /^[A-Za-z0-9_-]{1,4}$/;
/** An instance name: it starts session ids, which travel in headers and URLs, so it stays plain. */
export const INSTANCE_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;

export const DEFAULTS = {
  host: '127.0.0.1',
  port: 8808,
  separator: '__',
  /** Characters; 48 leaves room for a host's own `mcp__<name>__` prefix within 64. */
  maxNameLength: 48,
  /** Bytes (4 MiB). */
  maxBodyBytes: 4 * 1024 * 1024,
  /** Bytes (16 MiB); a child's stdout line longer than this is dropped. */
  maxLineBytes: 16 * 1024 * 1024,
  /** Client sessions held at once. */
  maxSessions: 10_000,
  /** Sessions one token may hold at once (auth off: only maxSessions applies). */
  maxSessionsPerIdentity: 1_000,
  /** Milliseconds to receive a whole request (headers and body); a response may take as long as it needs. */
  requestTimeoutMs: 30_000,
  /** Milliseconds to receive a request's headers. */
  headersTimeoutMs: 10_000,
  /** Open client connections at once (each holds a file descriptor). */
  maxConnections: 4_096,
  /** Open connections from one non-loopback address at once. */
  maxConnectionsPerAddress: 256,
  /**
   * Items per list page sent to clients. Large on purpose: most clients never follow `nextCursor`
   * (the SDK's listTools() returns the first page), so a page smaller than the catalog hides tools.
   */
  pageSize: 1_000,
  /** Milliseconds (30 min). */
  sessionIdleMs: 30 * 60 * 1000,
  /** Milliseconds a stopping daemon lets in-flight requests finish before it closes sessions. */
  shutdownGraceMs: 10_000,
  /** Milliseconds, per request towards a server. */
  timeoutMs: 60_000,
  /** Requests waiting for a free slot of a server with maxConcurrent, per instance. */
  maxQueued: 1_000,
  /** Milliseconds; first restart delay after a crash. */
  restartInitialDelayMs: 500,
  /** Milliseconds; cap of the restart backoff. */
  restartMaxDelayMs: 30_000,
  logLevel: 'info',
  /** Bytes (10 MiB) per sanitization log file before rotation. */
  sanitizeLogMaxBytes: 10 * 1024 * 1024,
  /** Rotated sanitization log files kept. */
  sanitizeLogKeep: 5,
  /** Seconds of clock difference tolerated on a token's exp, nbf and iat. */
  clockSkewSeconds: 30,
  /** Milliseconds between JWKS refetches caused by tokens naming unknown keys. */
  jwksCooldownMs: 30_000,
} as const;

/** Asymmetric JWS algorithms only: `none` and shared-secret HMAC never verify an access token here. */
export const JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

function int(min: number, max: number): z.ZodNumber {
  const error = `expected an integer between ${min} and ${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

const nonEmptyString = z.string({ error: 'expected a non-empty string' }).min(1, { error: 'expected a non-empty string' });
const anyString = z.string({ error: 'expected a string' });

function stringArray(item: z.ZodString): z.ZodArray<z.ZodString> {
  return z.array(item, { error: 'expected an array of strings' });
}

const objectError = { error: 'expected an object' };

const sanitizeObject = z.object(
  {
    // JSON-lines log of every finding; relative to the config dir. Default: the XDG state dir.
    log: nonEmptyString.optional(),
    // First-seen tool hashes (rug-pull detection); relative to the config dir. Default: the XDG state dir.
    pins: nonEmptyString.optional(),
    // false: high-confidence attacks are neutralized or flagged instead of withholding the tool (SANITIZE.md).
    blocking: z.boolean({ error: 'expected true or false' }).default(true),
    // false: the learned second opinion (rule learned-intent) stays silent and the rules decide alone.
    learnedIntent: z.boolean({ error: 'expected true or false' }).default(true),
    // Bytes per log file before it rotates, and rotated files kept: a hostile server relisting every second must not fill the disk.
    logMaxBytes: int(4096, 2 ** 40).default(DEFAULTS.sanitizeLogMaxBytes),
    logKeep: int(0, 100).default(DEFAULTS.sanitizeLogKeep),
  },
  objectError,
);
const sanitizeSchema = sanitizeObject.prefault({});

/** Profile and token names: they appear in URLs (`?profile=`), logs and session owners. */
export const PROFILE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const TOKEN_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.@+-]{0,63}$/;
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Characters; a longer glob is surely a mistake, and this bounds matching work per name. */
export const MAX_GLOB_LENGTH = 256;

const glob = nonEmptyString.max(MAX_GLOB_LENGTH, { error: `expected at most ${MAX_GLOB_LENGTH} characters` });

// `allow` absent means "everything"; present and empty means "nothing" (e.g. a profile without prompts).
const ruleObject = z.object(
  {
    allow: stringArray(glob).optional(),
    deny: stringArray(glob).default([]),
  },
  objectError,
);

const profileObject = z.object(
  {
    tools: ruleObject.optional(),
    prompts: ruleObject.optional(),
    servers: ruleObject.optional(),
    // Globs over resource URIs (and resource templates' uriTemplate): `*` runs over / and : too.
    resources: ruleObject.optional(),
    maxTools: int(1, 1_000_000).optional(),
    maxTokens: int(1, 1_000_000_000).optional(),
    // "search": tools/list shows the search tools and `pinned`; the model finds the rest (docs/search.md).
    discovery: z.enum(['list', 'search'], { error: 'expected "list" or "search"' }).optional(),
    // Tools a search-mode session lists in full whatever it searches (namespaced globs).
    pinned: stringArray(glob).default([]),
    // The order maxTools/maxTokens keep tools in: tools matching earlier globs first, then config order.
    priority: stringArray(glob).default([]),
  },
  objectError,
);

export type RawProfile = z.output<typeof profileObject>;

const tokenObject = z.object(
  {
    name: z
      .string({ error: 'expected a string' })
      .regex(TOKEN_NAME_PATTERN, { error: 'expected 1 to 64 characters of [A-Za-z0-9_.@+-], starting with a letter or digit' }),
    tokenEnv: z
      .string({ error: 'expected a string' })
      .regex(ENV_NAME_PATTERN, { error: 'expected an environment variable name like SWITCHBOARD_TOKEN_ALICE' })
      .optional(),
    tokenFile: nonEmptyString.optional(),
    // null: this token sees everything even when `defaultProfile` is set (an operator's token).
    profile: nonEmptyString.nullable().optional(),
    // true: may read /metrics, /status.json, /readyz detail and restart servers, whatever its profile.
    admin: z.boolean({ error: 'expected true or false' }).default(false),
  },
  objectError,
);

export type RawToken = z.output<typeof tokenObject>;

const oauthObject = z.object(
  {
    // The authorization server whose access tokens are accepted: exactly its `iss`.
    issuer: nonEmptyString,
    // Accepted `aud` values; absent: this proxy's own URLs (listen.publicUrl and its endpoints, RFC 8707).
    audience: z.union([nonEmptyString, stringArray(nonEmptyString)], { error: 'expected a string or an array of strings' }).optional(),
    // Absent: the `jwks_uri` of the issuer's metadata.
    jwksUri: nonEmptyString.optional(),
    requiredScopes: stringArray(nonEmptyString).default([]),
    // A claim naming groups or roles (a string or an array of strings), mapped to profiles by `profiles`.
    profileClaim: nonEmptyString.optional(),
    // Claim value -> profile name (null: sees everything); the first entry the token carries wins.
    profiles: z.record(z.string(), nonEmptyString.nullable(), { error: 'expected an object mapping claim values to profile names' }).default({}),
    // Claim values whose holders may read operations data, whatever their profile.
    adminValues: stringArray(nonEmptyString).default([]),
    // RFC 7662, for opaque (non-JWT) access tokens; the proxy authenticates as this client.
    introspectionEndpoint: nonEmptyString.optional(),
    clientId: nonEmptyString.optional(),
    clientSecretEnv: z.string({ error: 'expected a string' }).regex(ENV_NAME_PATTERN, { error: 'expected an environment variable name' }).optional(),
    clientSecretFile: nonEmptyString.optional(),
    algorithms: z.array(z.enum(JWT_ALGORITHMS, { error: `expected one of ${JWT_ALGORITHMS.join(', ')}` }), { error: 'expected an array of strings' }).default([...JWT_ALGORITHMS]),
    clockSkewSeconds: int(0, 600).default(DEFAULTS.clockSkewSeconds),
    // At most one JWKS refetch for an unknown key id per this many ms (a floor keeps a flood of
    // made-up key ids from turning into a flood of requests to the provider).
    jwksCooldownMs: int(1000, MAX_TIMER_MS).default(DEFAULTS.jwksCooldownMs),
  },
  objectError,
);

export type RawOAuth = z.output<typeof oauthObject>;

const authObject = z.object(
  {
    tokens: z.array(tokenObject, { error: 'expected an array of tokens' }).default([]),
    oauth: oauthObject.optional(),
  },
  objectError,
);

const tlsObject = z.object({ cert: nonEmptyString, key: nonEmptyString }, objectError);

const restartObject = z.object(
  {
    initialDelayMs: int(1, MAX_TIMER_MS).default(DEFAULTS.restartInitialDelayMs),
    maxDelayMs: int(1, MAX_TIMER_MS).default(DEFAULTS.restartMaxDelayMs),
  },
  objectError,
);
export const restartSchema = restartObject.prefault({});

export const serverSchema = z.object(
  {
    // Claude Desktop writes `"type": "stdio"`; VS Code `"http"` or `"sse"` beside a `url`.
    type: z.enum(['stdio', 'http', 'sse', 'streamable-http', 'streamableHttp'], { error: 'expected "stdio", "http" or "sse"' }).optional(),
    // Exactly one of `command` (a child to spawn) and `url` (a remote server) is required.
    command: nonEmptyString.optional(),
    url: nonEmptyString.optional(),
    // Headers sent to a remote server, `${VAR}` expanded: where its credentials go.
    headers: z.record(z.string(), anyString, objectError).default({}),
    // A remote server's transport; `auto` tries Streamable HTTP, then the legacy HTTP+SSE.
    transport: z.enum(['auto', 'http', 'sse'], { error: 'expected "auto", "http" or "sse"' }).optional(),
    // A PEM file of CA certificates a remote server's TLS certificate may chain to, besides the system's.
    ca: nonEmptyString.optional(),
    // The proxy signs in to a remote server itself (`switchboard login NAME`), as an OAuth client.
    oauth: z
      .object(
        {
          scope: nonEmptyString.optional(),
          // A client registered for the proxy at the authorization server; absent: dynamic registration.
          clientId: nonEmptyString.optional(),
          clientSecretEnv: z.string({ error: 'expected a string' }).regex(ENV_NAME_PATTERN, { error: 'expected an environment variable name' }).optional(),
        },
        objectError,
      )
      .optional(),
    args: stringArray(anyString).default([]),
    env: z.record(z.string(), anyString, objectError).default({}),
    cwd: nonEmptyString.optional(),
    // Pattern checked after substitution, since `${VAR}` itself would not match.
    alias: nonEmptyString.optional(),
    isolation: z.enum(['shared', 'session'], { error: 'expected "shared" or "session"' }).default('shared'),
    // Which protocol era the child speaks: probed with server/discover (2026-07-28), else initialize.
    protocol: z.enum(['auto', 'session', 'stateless'], { error: 'expected "auto", "session" or "stateless"' }).default('auto'),
    timeoutMs: int(1, MAX_TIMER_MS).default(DEFAULTS.timeoutMs),
    // Requests in flight to one instance at once (a single-threaded server); more wait in a queue of maxQueued, then fail.
    maxConcurrent: int(1, 100_000).optional(),
    maxQueued: int(0, 100_000).default(DEFAULTS.maxQueued),
    disabled: z.boolean({ error: 'expected true or false' }).default(false),
    restart: restartSchema,
    roots: stringArray(nonEmptyString).default([]),
    // A changed tool definition is normally withheld until `switchboard approve`; true re-pins it silently.
    acceptUpdates: z.boolean({ error: 'expected true or false' }).default(false),
  },
  objectError,
);


const listenObject = z.object(
  {
    host: nonEmptyString.default(DEFAULTS.host),
    port: int(0, 65535).default(DEFAULTS.port),
    tls: tlsObject.optional(),
    // Host header names (no port) accepted besides loopback ones and listen.host: DNS-rebinding protection.
    allowedHosts: stringArray(nonEmptyString).default([]),
    // The URL clients reach the proxy at (behind a reverse proxy): OAuth metadata and audience use it.
    publicUrl: nonEmptyString.optional(),
  },
  objectError,
);
const listenSchema = listenObject.prefault({});

const namespaceObject = z.object(
  {
    separator: z
      .string({ error: 'expected a string' })
      .regex(SEPARATOR_PATTERN, { error: `expected 1 to 4 characters of [A-Za-z0-9_-]` })
      .default(DEFAULTS.separator),
    maxLength: int(16, 128).default(DEFAULTS.maxNameLength),
  },
  objectError,
);
const namespaceSchema = namespaceObject.prefault({});

const limitsObject = z.object(
  {
    maxBodyBytes: int(1, 2 ** 30).default(DEFAULTS.maxBodyBytes),
    maxLineBytes: int(1, 2 ** 30).default(DEFAULTS.maxLineBytes),
    maxSessions: int(1, 10_000_000).default(DEFAULTS.maxSessions),
    // One token must not be able to open every session and lock the rest of the team out.
    maxSessionsPerIdentity: int(1, 10_000_000).default(DEFAULTS.maxSessionsPerIdentity),
    // A client that trickles its request must not hold a connection (and a file descriptor) forever.
    requestTimeoutMs: int(1000, MAX_TIMER_MS).default(DEFAULTS.requestTimeoutMs),
    headersTimeoutMs: int(1000, MAX_TIMER_MS).default(DEFAULTS.headersTimeoutMs),
    maxConnections: int(1, 10_000_000).default(DEFAULTS.maxConnections),
    maxConnectionsPerAddress: int(1, 10_000_000).default(DEFAULTS.maxConnectionsPerAddress),
    pageSize: int(1, 10_000).default(DEFAULTS.pageSize),
    sessionIdleMs: int(1, MAX_TIMER_MS).default(DEFAULTS.sessionIdleMs),
    shutdownGraceMs: int(0, MAX_TIMER_MS).default(DEFAULTS.shutdownGraceMs),
    // Token buckets per identity, profile and tool glob (rate-limits.ts); reloaded live.
    ...rateLimitFields,
  },
  objectError,
);
const limitsSchema = limitsObject.prefault({});

const otlpObject = z.object(
  {
    endpoint: nonEmptyString.optional(),
    // Credentials of a hosted collector go here, `${VAR}` expanded: never echoed in messages or logs.
    headers: z.record(z.string(), anyString, objectError).optional(),
    protocol: z.enum(['http/protobuf', 'http/json'], { error: 'expected "http/protobuf" or "http/json"' }).optional(),
  },
  objectError,
);

const telemetryObject = z.object(
  {
    otlp: otlpObject.optional(),
    sampleRatio: z.number({ error: 'expected a number from 0 to 1' }).min(0, { error: 'expected a number from 0 to 1' }).max(1, { error: 'expected a number from 0 to 1' }).optional(),
    serviceName: nonEmptyString.optional(),
  },
  objectError,
);

/** Everything but `mcpServers`, whose entries are checked one by one to scope errors per server. */
export const topSchema = z.object({
  mcpServers: z.record(z.string(), z.unknown(), { error: 'expected an object mapping server names to servers' }),
  listen: listenSchema,
  namespace: namespaceSchema,
  limits: limitsSchema,
  allowedOrigins: stringArray(nonEmptyString).default([]),
  profiles: z.record(z.string(), profileObject, { error: 'expected an object mapping profile names to profiles' }).default({}),
  // The profile of sessions without one of their own: anonymous ones (auth off) and tokens without
  // `profile`. Absent: those sessions see everything. A name, not a profile literally called
  // "default", so that naming a profile never changes who gets it by accident.
  defaultProfile: nonEmptyString.optional(),
  auth: authObject.prefault({}),
  sanitize: sanitizeSchema,
  // Where pins and approvals are shared between instances (state.ts).
  state: stateObject.optional(),
  // Opt-in record of every tool call (call-log.ts).
  callLog: callLogObject.optional(),
  logLevel: z.enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(', ')}` }).default(DEFAULTS.logLevel),
  // This daemon's name among several behind one balancer: the first part of every session id.
  // OTLP tracing; absent, the OTEL_* variables decide (config/telemetry.ts).
  telemetry: telemetryObject.optional(),
  instance: z.string({ error: 'expected a string' }).regex(INSTANCE_PATTERN, { error: 'expected 1 to 32 characters of [a-z0-9-], starting with a letter or digit' }).optional(),
});

export type RawTop = z.output<typeof topSchema>;

/** Keys each object level understands; anything else is warned about and ignored. */
export const KNOWN_KEYS = {
  top: new Set(Object.keys(topSchema.shape)),
  server: new Set(Object.keys(serverSchema.shape)),
  restart: new Set(Object.keys(restartObject.shape)),
  listen: new Set(Object.keys(listenObject.shape)),
  namespace: new Set(Object.keys(namespaceObject.shape)),
  limits: new Set(Object.keys(limitsObject.shape)),
  tls: new Set(Object.keys(tlsObject.shape)),
  profile: new Set(Object.keys(profileObject.shape)),
  rule: new Set(Object.keys(ruleObject.shape)),
  auth: new Set(Object.keys(authObject.shape)),
  oauth: new Set(Object.keys(oauthObject.shape)),
  token: new Set(Object.keys(tokenObject.shape)),
  sanitize: new Set(Object.keys(sanitizeObject.shape)),
  state: new Set(Object.keys(stateObject.shape)),
  telemetry: new Set(Object.keys(telemetryObject.shape)),
  otlp: new Set(Object.keys(otlpObject.shape)),
} as const;

/** Paths whose values may be secrets: never echoed in messages. */
export function isSecretPath(path: readonly PropertyKey[]): boolean {
  return (path[0] === 'mcpServers' && (path[2] === 'env' || path[2] === 'headers')) || path[0] === 'auth' || (path[0] === 'limits' && path[1] === 'redis') || (path[0] === 'state' && path[1] === 'redis') || (path[0] === 'telemetry' && path[2] === 'headers');
}
