// Who is asking: the identity a request authenticated as, whatever proved it (no token with auth
// off, a static token, an OAuth access token).

export interface Identity {
  /**
   * The session owner's name: a static token's `name`, `oauth:<sub>` for an access token (the
   * prefix keeps a subject from ever matching a token name), or `anonymous` when auth is off.
   */
  readonly name: string;
  /** The profile bounding this identity's views (resolveViewFilter's `bound`), undefined for none. */
  readonly profile: string | undefined;
  readonly anonymous: boolean;
  /** May read operations data and restart servers (TokenConfig.admin; everyone when auth is off). */
  readonly admin: boolean;
  /** When the credential expires, ms since the epoch (access tokens): a WebSocket session ends then. */
  readonly expiresAt?: number;
}
