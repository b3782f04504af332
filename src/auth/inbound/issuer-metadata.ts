// The authorization server's metadata (RFC 8414, OpenID Connect Discovery 1.0): where its keys and
// introspection endpoint are. Read once at start and again after failures, never per request.
import { isObject } from '../../jsonrpc/messages.js';
import { fetchJson } from './http-json.js';

export interface IssuerMetadata {
  readonly jwksUri: string | undefined;
  readonly introspectionEndpoint: string | undefined;
}

/**
 * The metadata URLs of an issuer, in the order tried: OpenID Connect's (the path appended) first,
 * as every common provider serves it, then RFC 8414's (the well-known segment inserted before the path).
 */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return [
    `${url.origin}${path}/.well-known/openid-configuration`,
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
  ];
}

/**
 * Fetches the metadata; throws a one-line Error naming what failed. The document must name the
 * configured issuer exactly (RFC 8414 §3.3): a provider answering for another issuer is a misconfiguration.
 */
export async function fetchIssuerMetadata(issuer: string, timeoutMs: number): Promise<IssuerMetadata> {
  const problems: string[] = [];
  for (const url of metadataUrls(issuer)) {
    let document: unknown;
    try {
      document = await fetchJson(url, { timeoutMs });
    } catch (error) {
      problems.push(`${url}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (!isObject(document)) {
      problems.push(`${url}: not a JSON object`);
      continue;
    }
    if (document.issuer !== issuer) {
      problems.push(`${url}: names issuer ${JSON.stringify(document.issuer)}, not ${JSON.stringify(issuer)}`);
      continue;
    }
    return {
      jwksUri: typeof document.jwks_uri === 'string' ? document.jwks_uri : undefined,
      introspectionEndpoint: typeof document.introspection_endpoint === 'string' ? document.introspection_endpoint : undefined,
    };
  }
  throw new Error(`no metadata for issuer ${issuer} (${problems.join('; ')})`);
}
