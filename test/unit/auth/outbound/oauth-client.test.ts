// The daemon's side of signing in to a remote server: stored tokens used while good, a sign-in
// asked for (never attempted) when they are missing, expired without a refresh token, or refused.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoginRequired, StoredOAuthClient, accessToken } from '../../../../src/auth/outbound/oauth-client.js';
import type { RemoteOAuthConfig } from '../../../../src/config/types.js';

const URL_A = 'https://tools.example.com/mcp';
let dir: string;
let oauth: RemoteOAuthConfig;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-oauth-client-'));
  oauth = { scope: undefined, clientId: undefined, clientSecret: undefined, store: path.join(dir, 'remote-oauth', 'tools.json') };
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function store(tokens: Record<string, unknown>, extra: Record<string, unknown> = {}): void {
  new StoredOAuthClient(URL_A, 'tools', oauth).saveTokens(tokens as never);
  const saved = JSON.parse(fs.readFileSync(oauth.store, 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(oauth.store, JSON.stringify({ ...saved, ...extra }), { mode: 0o600 });
}

describe('accessToken', () => {
  it('asks for a sign-in when nothing is stored, naming the command', async () => {
    await expect(accessToken(URL_A, 'tools', oauth)).rejects.toThrow(LoginRequired);
    await expect(accessToken(URL_A, 'tools', oauth)).rejects.toThrow('switchboard login tools');
  });

  it('uses a stored token while it has more than a minute left, and writes the store 0600 in a 0700 directory', async () => {
    store({ access_token: 'good', token_type: 'Bearer', expires_in: 3600 });
    await expect(accessToken(URL_A, 'tools', oauth)).resolves.toMatchObject({ token: 'good', expiresAt: expect.any(Number) });
    expect(fs.statSync(oauth.store).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(oauth.store)).mode & 0o777).toBe(0o700);
  });

  it('asks for a sign-in when the token expired (or was refused) and there is no refresh token', async () => {
    store({ access_token: 'old', token_type: 'Bearer', expires_in: 30 });
    await expect(accessToken(URL_A, 'tools', oauth)).rejects.toThrow(/expired and no refresh token/);
    store({ access_token: 'refused', token_type: 'Bearer', expires_in: 3600 });
    new StoredOAuthClient(URL_A, 'tools', oauth).markRefused();
    await expect(accessToken(URL_A, 'tools', oauth)).rejects.toThrow(LoginRequired);
  });

  it('ignores tokens stored for another URL, and keeps the refresh token a refresh answer leaves out', async () => {
    store({ access_token: 'elsewhere', token_type: 'Bearer' });
    await expect(accessToken('https://other.example.com/mcp', 'tools', oauth)).rejects.toThrow(LoginRequired);
    const client = new StoredOAuthClient(URL_A, 'tools', oauth);
    client.saveTokens({ access_token: 'a1', token_type: 'Bearer', refresh_token: 'r1' });
    client.saveTokens({ access_token: 'a2', token_type: 'Bearer' });
    expect(client.tokens()).toMatchObject({ access_token: 'a2', refresh_token: 'r1' });
  });
});
