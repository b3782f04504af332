// `auth.oauth` → OAuthConfig, and `listen.publicUrl`: URLs checked up front (an issuer reached over
// plain http could hand out keys to anyone on the path, so only loopback may skip TLS), profiles
// named in the claim mapping checked to exist, the introspection secret read from env or file.

import path from 'node:path';
import { describeValue, type Findings, type PathSegment } from './errors.js';
import { substitute } from './interpolate.js';
import { isLoopbackHost } from './listen.js';
import { checkProfileRef } from './profiles.js';
import { KNOWN_KEYS, type RawOAuth } from './schema.js';
import { Secret } from './secret.js';
import { readSecretFile } from './tokens.js';
import { secretSink, substitutionSink } from './secret-sink.js';
import type { OAuthConfig, ProfileConfig } from './types.js';
import { isPlainObject, refuseUnknownKeys } from './validate.js';

export interface OAuthContext {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly findings: Findings;
  readonly profiles: Readonly<Record<string, ProfileConfig>>;
  /** false: an unavailable client secret is a warning (commands that verify no token). */
  readonly secretNeeded: boolean;
}

const AT: readonly PathSegment[] = ['auth', 'oauth'];

/**
 * An https URL, or http on a loopback host (a provider on this machine, tests); undefined after
 * reporting why not. `what` names it in the message.
 */
function secureUrl(written: string, at: readonly PathSegment[], ctx: OAuthContext, what: string): string | undefined {
  const report = (p: readonly PathSegment[], problem: string): void => ctx.findings.error(p, problem);
  const before = ctx.findings.count;
  const value = substitute(written, at, ctx.env, report, ctx.dir).value;
  if (ctx.findings.count !== before) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.findings.error(at, `expected ${what} as an absolute URL, got ${describeValue(written)}`);
    return undefined;
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return value;
  ctx.findings.error(at, `${what} must use https (plain http is accepted only on a loopback address), got ${describeValue(written)}`);
  return undefined;
}

/** `rawAuth` is the `auth` section as written (for unknown keys), `parsed` its `oauth` after the schema. */
export function resolveOAuth(rawAuth: unknown, parsed: RawOAuth | undefined, ctx: OAuthContext): OAuthConfig | undefined {
  if (parsed === undefined) return undefined;
  const { findings } = ctx;
  const written = isPlainObject(rawAuth) ? rawAuth['oauth'] : undefined;
  if (isPlainObject(written)) refuseUnknownKeys(written, KNOWN_KEYS.oauth, AT, findings);
  const issuer = secureUrl(parsed.issuer, [...AT, 'issuer'], ctx, 'the issuer');
  const jwksUri = parsed.jwksUri === undefined ? undefined : secureUrl(parsed.jwksUri, [...AT, 'jwksUri'], ctx, 'jwksUri');
  const audience = parsed.audience === undefined ? undefined : typeof parsed.audience === 'string' ? [parsed.audience] : parsed.audience;
  if (audience !== undefined && audience.length === 0) findings.error([...AT, 'audience'], 'is empty: name at least one audience, or leave it out to accept this proxy\'s own URLs');

  const profiles: { value: string; profile: string | undefined }[] = [];
  for (const [value, profile] of Object.entries(parsed.profiles)) {
    checkProfileRef(profile ?? undefined, ctx.profiles, [...AT, 'profiles', value], findings);
    profiles.push({ value, profile: profile ?? undefined });
  }
  if ((profiles.length > 0 || parsed.adminValues.length > 0) && parsed.profileClaim === undefined) {
    findings.error([...AT, 'profileClaim'], 'is required with "profiles" or "adminValues": name the claim they map, like "groups" or "roles"');
  }
  if (parsed.algorithms.length === 0) findings.error([...AT, 'algorithms'], 'is empty: no token could be verified');

  let introspection: OAuthConfig['introspection'];
  if (parsed.introspectionEndpoint !== undefined) {
    const endpoint = secureUrl(parsed.introspectionEndpoint, [...AT, 'introspectionEndpoint'], ctx, 'introspectionEndpoint');
    const secret = clientSecret(parsed, ctx);
    if (parsed.clientId === undefined) findings.error([...AT, 'clientId'], 'is required with introspectionEndpoint: the client the proxy authenticates as');
    if (endpoint !== undefined && secret !== undefined && parsed.clientId !== undefined) introspection = { endpoint, clientId: parsed.clientId, clientSecret: secret };
  } else if (parsed.clientSecretEnv !== undefined || parsed.clientSecretFile !== undefined) {
    findings.warn([...AT], 'a client secret is configured without introspectionEndpoint; it is not used');
  }
  if (issuer === undefined) return undefined;
  return {
    issuer,
    audience,
    jwksUri,
    requiredScopes: parsed.requiredScopes,
    profileClaim: parsed.profileClaim,
    profiles,
    adminValues: parsed.adminValues,
    introspection,
    algorithms: parsed.algorithms,
    clockSkewSeconds: parsed.clockSkewSeconds,
    jwksCooldownMs: parsed.jwksCooldownMs,
  };
}

function clientSecret(parsed: RawOAuth, ctx: OAuthContext): Secret | undefined {
  const { findings } = ctx;
  if ((parsed.clientSecretEnv === undefined) === (parsed.clientSecretFile === undefined)) {
    findings.error(AT, parsed.clientSecretEnv === undefined
      ? 'introspectionEndpoint needs "clientSecretEnv" (an environment variable) or "clientSecretFile" (a file) holding the client secret'
      : 'set only one of "clientSecretEnv" and "clientSecretFile"');
    return undefined;
  }
  const missing = secretSink(findings, ctx.secretNeeded);
  if (parsed.clientSecretEnv !== undefined) {
    const value = ctx.env[parsed.clientSecretEnv];
    if (value === undefined || value.trim() === '') {
      missing([...AT, 'clientSecretEnv'], `environment variable ${parsed.clientSecretEnv} is not set`);
      return undefined;
    }
    return new Secret(value.trim());
  }
  const at: PathSegment[] = [...AT, 'clientSecretFile'];
  const before = findings.count;
  const file = path.resolve(ctx.dir, substitute(parsed.clientSecretFile ?? '', at, ctx.env, substitutionSink(findings, missing), ctx.dir).value);
  if (findings.count !== before || missing.count > 0) return undefined;
  const text = readSecretFile(file, at, findings, missing)?.trim();
  if (text === undefined) return undefined;
  if (text === '') {
    findings.error(at, `file ${file} is empty`);
    return undefined;
  }
  return new Secret(text);
}
