// `listen` → ListenConfig: host, TLS files checked up front, extra Host names, and the rule that a
// listener reachable from other machines needs auth tokens (SPEC "Failure behaviour").

import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describeValue, type Findings, type PathSegment } from './errors.js';
import { substitute } from './interpolate.js';
import type { RawTop } from './schema.js';
import type { ListenConfig } from './types.js';
import { secretSink, type SecretSink } from './secret-sink.js';

export interface ListenContext {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly findings: Findings;
  /** Entries under `auth.tokens` as written, whether or not each one resolved. */
  readonly tokenCount: number;
  /** `auth.oauth` is configured: tokens from an identity provider guard the port. */
  readonly oauth: boolean;
  /** false: a TLS key this user cannot read is a warning (commands that do not listen). */
  readonly keyNeeded: boolean;
}

/** A DNS name or IPv4 address, or a bracketed IPv6 address; lower case, no scheme, no port. */
const HOST_NAME = /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)$/;

/** Names and addresses that only this machine can reach. `localhost` is trusted to resolve locally. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  if (h === 'localhost' || h === '::1' || h === '[::1]') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice('::ffff:'.length) : h;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

export function resolveListen(listen: RawTop['listen'], ctx: ListenContext): ListenConfig {
  const { findings } = ctx;
  const report = (p: readonly PathSegment[], problem: string): void => findings.error(p, problem);
  const before = findings.count;
  const host = substitute(listen.host, ['listen', 'host'], ctx.env, report, ctx.dir).value;
  if (findings.count === before) {
    if (host === '') findings.error(['listen', 'host'], 'is empty after substituting variables');
    else if (!isLoopbackHost(host) && ctx.tokenCount === 0 && !ctx.oauth) {
      // Whoever reaches the port could run every configured tool: refuse rather than warn.
      findings.error(['listen', 'host'], `${host} is not loopback: configure auth.tokens or auth.oauth, or bind 127.0.0.1`);
    } else if (!isLoopbackHost(host) && listen.tls === undefined) {
      findings.warn(['listen', 'host'], `${host} is not loopback and listen.tls is not set: bearer tokens cross the network in clear text unless a TLS-terminating proxy is in front`);
    }
  }

  const allowedHosts = listen.allowedHosts.map((h, i) => {
    const value = substitute(h, ['listen', 'allowedHosts', i], ctx.env, report, ctx.dir).value.toLowerCase();
    if (!HOST_NAME.test(value)) {
      findings.error(['listen', 'allowedHosts', i], `expected a host name without scheme or port, like "tools.example.com", got ${describeValue(h)}`);
    }
    return value;
  });

  let tls: ListenConfig['tls'];
  if (listen.tls !== undefined) {
    const file = (key: 'cert' | 'key', written: string): string =>
      path.resolve(ctx.dir, substitute(written, ['listen', 'tls', key], ctx.env, report, ctx.dir).value);
    tls = { cert: file('cert', listen.tls.cert), key: file('key', listen.tls.key) };
    checkTls(tls, findings, secretSink(findings, ctx.keyNeeded));
  }
  const publicUrl = resolvePublicUrl(listen.publicUrl, ctx.env, findings, ctx.dir);
  return { host, port: listen.port, tls, allowedHosts, publicUrl };
}

/** Parses both files now, so a wrong path or a key of another certificate fails `check`, not the first client. */
function checkTls(tls: { readonly cert: string; readonly key: string }, findings: Findings, keyMissing: SecretSink): void {
  const certText = readPem(tls.cert, ['listen', 'tls', 'cert'], findings);
  const keyText = readPem(tls.key, ['listen', 'tls', 'key'], findings, keyMissing);
  let cert: X509Certificate | undefined;
  let key: KeyObject | undefined;
  if (certText !== undefined) {
    try {
      cert = new X509Certificate(certText);
    } catch {
      findings.error(['listen', 'tls', 'cert'], `${tls.cert} holds no PEM certificate`);
    }
  }
  if (keyText !== undefined) {
    try {
      key = createPrivateKey(keyText);
    } catch {
      // Node's message is not shown: it is about the file's content, which is a secret.
      findings.error(['listen', 'tls', 'key'], `${tls.key} holds no unencrypted PEM private key`);
    }
  }
  if (cert !== undefined && key !== undefined && !cert.checkPrivateKey(key)) {
    findings.error(['listen', 'tls', 'key'], `${tls.key} is not the private key of the certificate in ${tls.cert}`);
  }
}

/** `missing` hears of a file that is not there or not readable by this user (a key readable only by the service). */
function readPem(file: string, at: readonly PathSegment[], findings: Findings, missing?: SecretSink): string | undefined {
  try {
    if (!fs.statSync(file).isFile()) {
      findings.error(at, `not a regular file: ${file}`);
      return undefined;
    }
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = typeof e === 'object' && e !== null && 'code' in e ? String(e.code) : '';
    const problem = code === 'ENOENT' ? 'no such file' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : 'unreadable';
    if (missing !== undefined && problem !== 'unreadable') missing(at, `${problem}: ${file}`);
    else findings.error(at, `${problem}: ${file}`);
    return undefined;
  }
}

/**
 * `listen.publicUrl` as `scheme://host[:port]`: the origin only, since the proxy serves its
 * endpoints and metadata at fixed paths under it.
 */
function resolvePublicUrl(written: string | undefined, env: NodeJS.ProcessEnv, findings: Findings, dir: string): string | undefined {
  if (written === undefined) return undefined;
  const at: PathSegment[] = ['listen', 'publicUrl'];
  const report = (p: readonly PathSegment[], problem: string): void => findings.error(p, problem);
  const before = findings.count;
  const value = substitute(written, at, env, report, dir).value;
  if (findings.count !== before) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    findings.error(at, `expected an absolute URL like "https://tools.example.com", got ${describeValue(written)}`);
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    findings.error(at, `expected an http or https URL, got ${describeValue(written)}`);
    return undefined;
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    findings.error(at, `expected scheme://host[:port] without a path, query or credentials, got ${describeValue(written)}`);
    return undefined;
  }
  return url.origin;
}
