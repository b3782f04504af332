// The proxy as an OAuth client of one remote server (MCP authorization, client side): the browser
// sign-in happens once, in `switchboard login`, and leaves the client registration and tokens in a
// file only the daemon's user can read; the daemon then uses and refreshes them. The protocol
// steps (metadata discovery, registration, PKCE, refresh) are the official SDK's `auth()`.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { RemoteOAuthConfig } from '../../config/types.js';

/** What the store file holds for one server. */
interface Stored {
  /** The server the tokens are for: a changed URL needs a new sign-in. */
  readonly url: string;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When `tokens` were obtained, ms since the epoch (expires_in counts from then). */
  obtainedAt?: number;
  /** The server refused the access token although it had not expired: refresh before using it again. */
  refused?: boolean;
}

/**
 * The SDK's client auth, loaded when a sign-in or refresh happens: its schemas cost every start of
 * the daemon and the CLI a noticeable time otherwise, and most configs never sign in anywhere.
 */
async function sdkAuth(): Promise<typeof import('@modelcontextprotocol/sdk/client/auth.js')['auth']> {
  return (await import('@modelcontextprotocol/sdk/client/auth.js')).auth;
}

/** Refreshed this long before it expires, ms, so a request never leaves with a token about to lapse. */
const REFRESH_MARGIN_MS = 60_000;

/** There are no usable tokens: someone has to run `switchboard login` (a browser is needed). */
export class LoginRequired extends Error {}

/** How `switchboard login` shows the user where to sign in, and where the browser comes back. */
export interface Interactive {
  readonly redirectUrl: string;
  readonly state: string;
  open(authorizationUrl: URL): Promise<void>;
}

export class StoredOAuthClient implements OAuthClientProvider {
  private verifier: string | undefined;

  constructor(
    private readonly url: string,
    private readonly name: string,
    private readonly oauth: RemoteOAuthConfig,
    private readonly interactive?: Interactive,
  ) {}

  get redirectUrl(): string | undefined {
    return this.interactive?.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: `mcp-switchboard (${this.name})`,
      redirect_uris: this.interactive === undefined ? [] : [this.interactive.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.oauth.clientSecret === undefined ? 'none' : 'client_secret_basic',
      ...(this.oauth.scope === undefined ? {} : { scope: this.oauth.scope }),
    };
  }

  state(): string {
    return this.interactive?.state ?? randomBytes(16).toString('base64url');
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (this.oauth.clientId !== undefined) {
      return { client_id: this.oauth.clientId, ...(this.oauth.clientSecret === undefined ? {} : { client_secret: this.oauth.clientSecret.reveal() }) };
    }
    return this.load().client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.save({ ...this.load(), client });
  }

  /** A login asks the user whatever is stored (a stored refresh token would be used instead); the stored ones stay until new ones come. */
  tokens(): OAuthTokens | undefined {
    return this.interactive === undefined ? this.load().tokens : undefined;
  }

  saveTokens(tokens: OAuthTokens): void {
    const { refused: _refused, ...stored } = this.load();
    const previous = stored.tokens;
    // A refresh answer may leave the refresh token out: the old one stays valid (RFC 6749 §6).
    const kept = tokens.refresh_token === undefined && previous?.refresh_token !== undefined ? { ...tokens, refresh_token: previous.refresh_token } : tokens;
    this.save({ ...stored, tokens: kept, obtainedAt: Date.now() });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.interactive === undefined) throw new LoginRequired(`not signed in to ${this.name}: run \`switchboard login ${this.name}\``);
    await this.interactive.open(authorizationUrl);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no PKCE code verifier: the sign-in did not start here');
    return this.verifier;
  }

  /** The server refused the token: the next use refreshes it first. */
  markRefused(): void {
    const stored = this.load();
    if (stored.tokens !== undefined) this.save({ ...stored, refused: true });
  }

  /** The stored state, or a fresh one when there is none or it was for another URL. */
  load(): Stored {
    let text: string;
    try {
      text = fs.readFileSync(this.oauth.store, 'utf8');
    } catch {
      return { url: this.url };
    }
    try {
      const stored = JSON.parse(text) as Stored;
      return stored.url === this.url ? stored : { url: this.url };
    } catch {
      return { url: this.url };
    }
  }

  /** Written whole to a temporary file and renamed: a crash never leaves half a file; 0600 from the start. */
  private save(stored: Stored): void {
    fs.mkdirSync(path.dirname(this.oauth.store), { recursive: true, mode: 0o700 });
    const temporary = `${this.oauth.store}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    fs.renameSync(temporary, this.oauth.store);
  }
}

/** A usable access token and when it stops being usable (Infinity when the server said nothing). */
export interface AccessToken {
  readonly token: string;
  readonly expiresAt: number;
}

/** Refreshes under way, by store file: one refresh token must not be spent twice at once (rotation). */
const refreshing = new Map<string, Promise<AccessToken>>();

/**
 * An access token for the server: the stored one while it is good, else a refreshed one. Throws
 * LoginRequired when there is none and no refresh token can make one.
 */
export function accessToken(url: string, name: string, oauth: RemoteOAuthConfig): Promise<AccessToken> {
  const running = refreshing.get(oauth.store);
  if (running !== undefined) return running;
  const client = new StoredOAuthClient(url, name, oauth);
  const stored = client.load();
  const tokens = stored.tokens;
  if (tokens === undefined) return Promise.reject(new LoginRequired(`not signed in to ${name}: run \`switchboard login ${name}\``));
  const expiresAt = expiryOf(stored);
  if (stored.refused !== true && Date.now() < expiresAt - REFRESH_MARGIN_MS) return Promise.resolve({ token: tokens.access_token, expiresAt });
  if (tokens.refresh_token === undefined) return Promise.reject(new LoginRequired(`the access token for ${name} expired and no refresh token was issued: run \`switchboard login ${name}\``));
  const refresh = (async (): Promise<AccessToken> => {
    // With a refresh token the SDK refreshes; if the refresh is refused it starts a sign-in, which
    // redirectToAuthorization answers with LoginRequired.
    const auth = await sdkAuth();
    await auth(client, { serverUrl: url, ...(oauth.scope === undefined ? {} : { scope: oauth.scope }) });
    const now = client.load();
    if (now.tokens === undefined) throw new LoginRequired(`not signed in to ${name}: run \`switchboard login ${name}\``);
    return { token: now.tokens.access_token, expiresAt: expiryOf(now) };
  })().finally(() => refreshing.delete(oauth.store));
  refreshing.set(oauth.store, refresh);
  return refresh;
}

function expiryOf(stored: Stored): number {
  const expiresIn = stored.tokens?.expires_in;
  return expiresIn === undefined || stored.obtainedAt === undefined ? Infinity : stored.obtainedAt + expiresIn * 1000;
}

/** When to fetch a fresh token for one that expires at `expiresAt`, ms from now; undefined when never. */
export function refreshDelay(expiresAt: number): number | undefined {
  return Number.isFinite(expiresAt) ? Math.max(1_000, expiresAt - REFRESH_MARGIN_MS - Date.now() + 1_000) : undefined;
}

/**
 * The browser sign-in of `switchboard login`: discovery, registration and PKCE through the SDK,
 * `interactive.open` shows the authorization URL, and `code` resolves with what the browser
 * brought back to the redirect URL. Resolves once the tokens are stored.
 */
export async function signIn(url: string, name: string, oauth: RemoteOAuthConfig, interactive: Interactive, code: Promise<string>): Promise<void> {
  const client = new StoredOAuthClient(url, name, oauth, interactive);
  const scope = oauth.scope === undefined ? {} : { scope: oauth.scope };
  const auth = await sdkAuth();
  const first = await auth(client, { serverUrl: url, ...scope });
  if (first === 'AUTHORIZED') return;
  const second = await auth(client, { serverUrl: url, authorizationCode: await code, ...scope });
  if (second !== 'AUTHORIZED') throw new Error('the authorization server did not issue tokens');
}
