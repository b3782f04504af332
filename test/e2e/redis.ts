// A real Redis (Debian's redis-server) for the tests that share limits between instances: its own
// port, no persistence, stopped (or killed) by the test.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { freePort } from './helpers.js';

export const REDIS_SERVER = '/usr/bin/redis-server';

export interface RunningRedis {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Kills it at once (SIGKILL), as a crash would, and resolves when it is gone. */
  kill(): Promise<void>;
}

export interface RedisOptions {
  /** requirepass: clients must AUTH with it (the url stays without it, as a test must build its own). */
  readonly password?: string;
}

/** Starts redis-server on a free loopback port; a port taken meanwhile is retried on another. */
export async function startRedis(options: RedisOptions = {}): Promise<RunningRedis> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    try {
      return await startRedisOn(port, options);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** Starts redis-server on `port` (rejects when it cannot listen there). */
export function startRedisOn(port: number, options: RedisOptions = {}): Promise<RunningRedis> {
  if (!fs.existsSync(REDIS_SERVER)) return Promise.reject(new Error('redis-server is not installed (README: test prerequisites)'));
  return new Promise((resolve, reject) => {
    const auth = options.password === undefined ? [] : ['--requirepass', options.password];
    const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', ...auth], { stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start: ${seen}`));
    }, 15_000);
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${seen}`));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (!seen.includes('Ready to accept connections')) return;
      clearTimeout(timer);
      resolve({
        url: `redis://127.0.0.1:${port}`,
        port,
        child,
        kill: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      });
    });
  });
}
