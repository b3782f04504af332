// Starting a real proxy with real child servers, and connecting the SDK's own client to it.
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createSwitchboard, resolveConfig, type RunningSwitchboard } from '../../src/index.js';
import { createRootLogger } from '../../src/log.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURE = path.join(ROOT, 'test/fixtures/fixture-server.mjs');
export const ECHO = path.join(ROOT, 'test/fixtures/echo-server.mjs');

/** A fixture server entry for `mcpServers`. */
export function fixture(name: string, extra: Record<string, unknown> = {}, env: Record<string, string> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: name, ...env }, ...extra };
}

export async function startProxy(raw: Record<string, unknown>): Promise<RunningSwitchboard> {
  const config = resolveConfig({ listen: { host: '127.0.0.1', port: 0 }, ...raw }, { file: '<inline>', dir: ROOT });
  const logFile = process.env.SWITCHBOARD_TEST_LOG;
  const proxy = await createSwitchboard(config, {
    shutdown: { afterStdinCloseMs: 500, afterTermMs: 500 },
    ...(logFile ? { logger: createRootLogger({ level: 'debug', destination: logFile }) } : {}),
  });
  if (!(await proxy.whenReady(20_000))) {
    await proxy.close();
    throw new Error('proxy servers did not become ready');
  }
  return proxy;
}

export interface ConnectOptions {
  readonly path?: string;
  readonly capabilities?: Record<string, unknown>;
  readonly name?: string;
}

export async function connect(proxy: RunningSwitchboard, options: ConnectOptions = {}): Promise<Client> {
  const client = new Client({ name: options.name ?? 'e2e', version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${proxy.url}${options.path ?? '/mcp'}`)));
  return client;
}

export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((c) => c.text ?? '').join('');
}
