// Pins shared by several instances through Redis: one hash field per pin entry, acceptance and
// server name (`<prefix>pins`), written by compare-and-set (pin-merge.ts) and announced on the
// channel `<prefix>pins`, which every daemon follows to reload and review again. Redis is loaded
// only when configured (state.redis or limits.redis).
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { RedisClientType } from 'redis';
import type { Logger } from '../log.js';
import type { SwitchboardConfig } from '../config/types.js';
import { describePinStore, type RedisStateConfig } from '../config/state.js';
import { PinStore, fromFields } from '../sanitize/index.js';
import { FilePinKeeper, type PinReloaded, type PinKeeper, type PinSaveOutcome } from './pin-keeper.js';
import { ABSENT, ANY, planWrite, type FieldWrite } from './pin-merge.js';

/**
 * KEYS[1]: the pins hash, KEYS[2]: the channel. ARGV[1]: the message to publish ('' for none), then
 * per field its name, the JSON expected ('' absent, '*' anything) and the new JSON ('' deletes).
 * Returns the fields that no longer hold what was expected, having written nothing; else writes all.
 */
const COMPARE_AND_SET = `
local conflicts = {}
for i = 2, #ARGV, 3 do
  local expected = ARGV[i + 1]
  if expected ~= '*' then
    local held = redis.call('HGET', KEYS[1], ARGV[i])
    if held == false then held = '' end
    if held ~= expected then conflicts[#conflicts + 1] = ARGV[i] end
  end
end
if #conflicts > 0 then return conflicts end
for i = 2, #ARGV, 3 do
  if ARGV[i + 2] == '' then redis.call('HDEL', KEYS[1], ARGV[i]) else redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2]) end
end
if ARGV[1] ~= '' then redis.call('PUBLISH', KEYS[2], ARGV[1]) end
return conflicts
`;

/** Pins are a security control: a daemon that cannot read them within this long does not start, ms. */
export const PIN_STORE_CONNECT_MS = 5_000;
/** Longest wait for one command: a Redis that hangs must not hold later saves for ever, ms. */
const PIN_STORE_COMMAND_MS = 5_000;

let redisModule: typeof import('redis') | undefined;
/** Loaded on first use: a daemon without a Redis never reads the client library. */
const loadRedis = (): typeof import('redis') => (redisModule ??= createRequire(import.meta.url)('redis') as typeof import('redis'));

const OK: PinSaveOutcome = Object.freeze({ ok: true });

/** The daemon's pins (file or Redis, by the config). `writable` false: read only (`switchboard check`). */
export async function openPinKeeper(config: SwitchboardConfig, log: Logger, options: { readonly writable: boolean }): Promise<PinKeeper> {
  const redis = config.state.redis;
  if (redis === undefined) return new FilePinKeeper(await PinStore.open(config.sanitize.pins), log);
  return RedisPinKeeper.open({ redis, file: config.sanitize.pins, instance: config.instance, writable: options.writable, subscribe: options.writable }, log);
}

export interface RedisPinOptions {
  readonly redis: RedisStateConfig;
  /** The pin file: seeds an empty Redis once, and names the pins in messages. */
  readonly file: string;
  readonly instance: string;
  /** false: never writes (not even the seed). */
  readonly writable: boolean;
  /** Follow other writers' announcements (the daemon; not the CLI). */
  readonly subscribe: boolean;
}

export class RedisPinKeeper implements PinKeeper {
  readonly where: string;
  private current: PinStore;
  /** Each field as the store held it when last read or written: what a compare-and-set expects. */
  private base = new Map<string, string>();
  private subscriber: RedisClientType | undefined;
  private onChange: (() => void) | undefined;
  private reloaded: PinReloaded | undefined;
  /** True while onChange runs: the saves it asks for follow another writer (planWrite's `echo`). */
  private echoing = false;
  /** Saves and reloads run one at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();
  private queuedSave: { promise: Promise<PinSaveOutcome>; echo: boolean } | undefined;
  private reloadQueued = false;
  private sha: string | undefined;
  /** Set while Redis fails, so an outage is logged once, and its end once. */
  private failing = false;
  /** While opening, a failure is the one error open() throws, not a logged outage; its latest reason goes in it. */
  private starting = true;
  private startError: string | undefined;
  private closed = false;
  /** This process in announcements, so it ignores its own. */
  private readonly self: string;
  private readonly key: string;

  private constructor(
    private readonly options: RedisPinOptions,
    private readonly client: RedisClientType,
    private readonly log: Logger,
  ) {
    this.where = describePinStore(options.redis);
    this.key = `${options.redis.prefix}pins`;
    this.self = `${options.instance}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.current = PinStore.of(options.file, { v: 1, servers: {} });
  }

  static async open(options: RedisPinOptions, log: Logger): Promise<RedisPinKeeper> {
    const { createClient } = loadRedis();
    const client = createClient({
      url: options.redis.url,
      // A save must fail at once while Redis is away (the pins stay in memory), not queue up.
      disableOfflineQueue: true,
      socket: { connectTimeout: PIN_STORE_CONNECT_MS, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** Math.min(retries, 5), 3000) },
    }) as RedisClientType;
    const keeper = new RedisPinKeeper(options, client, log);
    // Without a listener an 'error' event would end the process; the reason is logged by outage.
    client.on('error', (error: unknown) => keeper.failed(error));
    client.on('ready', () => keeper.back());
    try {
      await within(client.connect(), PIN_STORE_CONNECT_MS);
      if (options.subscribe) await keeper.subscribe();
      await within(keeper.load(), PIN_STORE_CONNECT_MS);
    } catch (error) {
      await keeper.close();
      const reason = keeper.startError ?? (error instanceof Error ? error.message : String(error));
      throw new Error(`cannot read the shared pins at ${keeper.where} within ${PIN_STORE_CONNECT_MS / 1000} s (${reason}); pins are a security control, so nothing starts without them`);
    }
    keeper.starting = false;
    return keeper;
  }

  get pins(): PinStore {
    return this.current;
  }

  /** True while Redis answers (tests, status). */
  get reachable(): boolean {
    return this.client.isReady && !this.failing;
  }

  get shared(): { readonly reachable: boolean } {
    return { reachable: this.reachable };
  }

  follow(onChange: () => void, reloaded?: PinReloaded): void {
    this.onChange = onChange;
    this.reloaded = reloaded;
  }

  save(): Promise<PinSaveOutcome> {
    if (!this.options.writable) return Promise.resolve(OK);
    // A save not yet started takes every change made until it starts; an own listing's save wins over an echo's.
    if (this.queuedSave !== undefined) {
      this.queuedSave.echo &&= this.echoing;
      return this.queuedSave.promise;
    }
    const entry: { promise: Promise<PinSaveOutcome>; echo: boolean } = { promise: Promise.resolve(OK), echo: this.echoing };
    entry.promise = this.enqueue(() => {
      this.queuedSave = undefined;
      return this.write(entry.echo);
    });
    this.queuedSave = entry;
    return entry.promise;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    for (const client of [this.subscriber, this.client]) {
      if (client === undefined) continue;
      try {
        await client.close();
      } catch {
        // Never connected, or already gone: nothing to close.
        client.destroy();
      }
    }
  }

  /** Reads the pins; an empty Redis is seeded once from the pin file, so a move to Redis re-pins nothing. */
  private async load(): Promise<void> {
    const held = await this.client.hGetAll(this.key);
    if (Object.keys(held).length > 0) return this.adopt(held);
    const local = await PinStore.open(this.options.file);
    const fields = local.fields();
    if (fields.size === 0) return;
    if (!this.options.writable) {
      // `check` before any daemon moved the pins: judge by the file, write nothing.
      this.current = local;
      return;
    }
    const writes = [...fields].map(([field, value]) => ({ field, expected: ABSENT, value }));
    const conflicts = await this.compareAndSet(writes, true);
    // Another instance seeded it first: take its pins.
    if (conflicts.length > 0) return this.adopt(await this.client.hGetAll(this.key));
    this.current = local;
    this.base = fields;
    this.log.info({ file: this.options.file, fields: fields.size, store: this.where }, 'seeded the shared pin store from the pin file');
  }

  private adopt(held: Record<string, string>): void {
    const { data, unreadable } = fromFields(held);
    if (unreadable > 0) this.log.warn({ unreadable, store: this.where }, 'fields of the shared pin store that are not pins were ignored');
    this.current = PinStore.of(this.options.file, data);
    this.base = new Map(Object.entries(held));
  }

  private async subscribe(): Promise<void> {
    const subscriber = this.client.duplicate() as RedisClientType;
    this.subscriber = subscriber;
    // The writer reports the outage; this connection reconnects and subscribes again by itself.
    subscriber.on('error', () => undefined);
    await within(subscriber.connect(), PIN_STORE_CONNECT_MS);
    await subscriber.subscribe(this.key, (message: string) => {
      if (announcer(message) !== this.self) this.scheduleReload();
    });
  }

  private enqueue<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op, op);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private scheduleReload(): void {
    if (this.reloadQueued || this.closed) return;
    this.reloadQueued = true;
    void this.enqueue(async () => {
      this.reloadQueued = false;
      try {
        await this.reload();
      } catch (error) {
        this.failed(error);
        this.reloaded?.(false);
      }
    });
  }

  /** Takes the store's pins when they differ from the last read, and has the catalog reviewed again. */
  private async reload(): Promise<void> {
    const held = await within(this.client.hGetAll(this.key), PIN_STORE_COMMAND_MS);
    if (sameFields(held, this.base)) {
      this.reloaded?.(false);
      return;
    }
    this.adopt(held);
    this.echoing = true;
    try {
      this.onChange?.();
    } finally {
      this.echoing = false;
    }
    this.reloaded?.(true);
  }

  private async write(echo: boolean): Promise<PinSaveOutcome> {
    const pins = this.current;
    const changes = pins.takeChanges();
    const plan = planWrite(changes, this.base, echo);
    pins.restoreChanges(plan.deferred);
    if (plan.writes.length === 0) return OK;
    try {
      const conflicts = await within(this.compareAndSet(plan.writes, plan.announce), PIN_STORE_COMMAND_MS);
      this.recovered();
      if (conflicts.length === 0) {
        for (const w of plan.writes) {
          if (w.value === undefined) this.base.delete(w.field);
          else this.base.set(w.field, w.value);
        }
        return OK;
      }
      // Another writer changed these since we read them (an approval we have not heard of yet):
      // our write is dropped, and the review decides again on the store's pins.
      this.log.info({ conflicts: conflicts.length, store: this.where }, 'pins changed by another writer meanwhile; reloading them and reviewing again');
      await this.reload();
      return { ok: false, error: new Error(`the pins at ${this.where} changed meanwhile; nothing was written`) };
    } catch (error) {
      // Kept in memory, written when Redis is back (back()).
      if (this.current === pins) pins.restoreChanges(changes.keys());
      this.failed(error);
      return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
    }
  }

  private async compareAndSet(writes: readonly FieldWrite[], announce: boolean): Promise<string[]> {
    const args = [announce ? JSON.stringify({ from: this.self }) : ''];
    for (const w of writes) args.push(w.field, w.expected === ANY ? '*' : w.expected, w.value ?? '');
    const keys = [this.key, this.key];
    if (this.sha !== undefined) {
      try {
        return (await this.client.evalSha(this.sha, { keys, arguments: args })) as string[];
      } catch (error) {
        // A restarted or flushed Redis forgot the script: load it again.
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      }
    }
    this.sha = await this.client.scriptLoad(COMPARE_AND_SET);
    return (await this.client.evalSha(this.sha, { keys, arguments: args })) as string[];
  }

  /**
   * Redis answers again after an outage: what changed meanwhile is written (compare-and-set, as
   * always), a Redis that came back empty (no persistence) gets every pin held in memory, and
   * announcements missed meanwhile are made up for by reloading when the store differs.
   */
  private back(): void {
    if (!this.failing || this.closed) return;
    void this.enqueue(async () => {
      try {
        const held = await within(this.client.hGetAll(this.key), PIN_STORE_COMMAND_MS);
        if (Object.keys(held).length === 0 && this.options.writable) {
          this.current.takeChanges();
          const fields = this.current.fields();
          const writes = [...fields].map(([field, value]) => ({ field, expected: ABSENT, value }));
          const conflicts = writes.length === 0 ? [] : await within(this.compareAndSet(writes, true), PIN_STORE_COMMAND_MS);
          if (conflicts.length > 0) await this.reload();
          else {
            this.base = fields;
            this.log.warn({ fields: fields.size, store: this.where }, 'the shared pin store came back empty; wrote the pins held in memory');
          }
        } else {
          if (this.options.writable) await this.write(false);
          await this.reload();
        }
        this.recovered();
      } catch (error) {
        this.failed(error);
      }
    });
  }

  private failed(error: unknown): void {
    if (this.starting) this.startError = error instanceof Error ? error.message : String(error);
    if (this.failing || this.closed || this.starting) return;
    this.failing = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.log.warn({ reason, store: this.where }, 'shared pin store unreachable: pins are kept in memory and saved when it is back');
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.log.info({ store: this.where }, 'shared pin store reachable again');
  }
}

/** The writer named in an announcement; undefined for anything else. */
function announcer(message: string): string | undefined {
  try {
    const parsed = JSON.parse(message) as unknown;
    const from = typeof parsed === 'object' && parsed !== null ? (parsed as { from?: unknown }).from : undefined;
    return typeof from === 'string' ? from : undefined;
  } catch {
    return undefined;
  }
}

function sameFields(held: Record<string, string>, base: ReadonlyMap<string, string>): boolean {
  const entries = Object.entries(held);
  return entries.length === base.size && entries.every(([field, value]) => base.get(field) === value);
}

/** `promise`, or a rejection after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
