// One stdio child process: spawn without a shell, NDJSON in and out, stderr to the log, staged shutdown.
import { execa } from 'execa';
import type { Logger } from '../log.js';
import { LineDecoder } from '../jsonrpc/ndjson.js';
import { BufferPool } from '../wire/buffer-pool.js';
import type { ServerConfig } from '../config/types.js';
import { Throttle } from '../throttle.js';
import { StderrTail } from './stderr-tail.js';
import type { ChildExit, ChildTransport, TransportEvents, WriteOutcome } from './transport.js';

export type { ChildExit } from './transport.js';
/** What a stdio child reports: it reads lines only (it never makes up messages of its own). */
export type ChildEvents = Pick<TransportEvents, 'onLine' | 'onExit'>;

export interface ShutdownTimings {
  /** Wait after closing stdin before SIGTERM, ms (the SDK's StdioClientTransport also uses 2 s). */
  readonly afterStdinCloseMs: number;
  /** Wait after SIGTERM before SIGKILL, ms. */
  readonly afterTermMs: number;
}

export const DEFAULT_SHUTDOWN: ShutdownTimings = { afterStdinCloseMs: 2000, afterTermMs: 2000 };

/** Lines longer than this are encoded before they are queued for the child's stdin, UTF-16 chars. */
const ENCODE_BEFORE_QUEUE_CHARS = 16 * 1024;

/** Most bytes queued towards a child's stdin before writes are refused, bytes (a child that stopped reading). */
const MAX_STDIN_BACKLOG_BYTES = 64 * 1024 * 1024;
/** How long to wait for stdout and stderr to finish after the child exited, ms. */
const STDOUT_DRAIN_MS = 200;

/** Children alive right now, so that even an abrupt exit of the daemon takes them along. */
const LIVE = new Set<ServerProcess>();
/** Children that exited while helpers of their group may still run (see reapGroup). */
const LINGERING = new Set<ServerProcess>();
process.on('exit', () => {
  for (const child of LIVE) child.killNow();
  for (const child of LINGERING) child.killNow();
});
/** How often a stop checks whether a child's helpers are gone, ms. */
const GROUP_POLL_MS = 50;

/** Longest stderr line decoded, bytes; longer ones are skipped whole (servers dump blobs there). */
const MAX_STDERR_LINE_BYTES = 64 * 1024;
/** Characters of a stderr line that reach the log; the rest is cut, with the length said. */
export const MAX_LOGGED_STDERR_CHARS = 2_000;
/**
 * stderr lines logged per child per second; the rest are counted and the count logged with the next
 * line that is. A child printing 200 MB/s must cost the daemon a bounded log, not its memory.
 */
export const STDERR_LINES_PER_SECOND = 50;

type Stdin = NonNullable<ReturnType<typeof spawn>['stdin']>;

export class ServerProcess implements ChildTransport {
  readonly pid: number | undefined;
  private readonly process: ReturnType<typeof spawn>;
  private exited: ChildExit | undefined;
  private readonly exitWaiters: Array<() => void> = [];
  private stopping: Promise<void> | undefined;
  /** Settles once the child's process group is gone (or was SIGKILLed) after the child exited. */
  private groupGone: Promise<void> = Promise.resolve();
  private readonly lineBuffers = new BufferPool();
  /** True while this turn's writes to stdin are held, to go out together (see coalesce). */
  private holding = false;
  /** The last stderr lines, whether or not the log took them (a failed server says why there). */
  private readonly tail = new StderrTail();

  constructor(
    private readonly config: ServerConfig,
    private readonly log: Logger,
    maxLineBytes: number,
    events: ChildEvents,
    private readonly shutdown: ShutdownTimings = DEFAULT_SHUTDOWN,
  ) {
    this.process = spawn(config);
    this.pid = this.process.pid;

    const stdout = new LineDecoder(maxLineBytes, {
      onLine: events.onLine,
      onOversize: (bytes) => this.log.warn({ bytes, limit: maxLineBytes }, 'dropped an oversize line from stdout'),
    });
    const stderrLog = new Throttle(STDERR_LINES_PER_SECOND, 1000, 1);
    const stderr = new LineDecoder(MAX_STDERR_LINE_BYTES, {
      onLine: (line) => {
        this.tail.push(line);
        const verdict = stderrLog.take('');
        if (!verdict.allowed) return;
        const shown = line.length > MAX_LOGGED_STDERR_CHARS ? `${line.slice(0, MAX_LOGGED_STDERR_CHARS)}… (${line.length} chars)` : line;
        this.log.info(verdict.dropped > 0 ? { stderr: shown, suppressed: verdict.dropped } : { stderr: shown }, 'server stderr');
      },
      onOversize: (bytes) => this.log.info({ bytes }, 'server wrote an oversize stderr line (not shown)'),
    });
    this.process.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    this.process.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    this.process.stderr?.on('end', () => stderr.end());
    // A child that exits while we write gives EPIPE; the exit handler reports the real cause.
    this.process.stdin?.on('error', (error) => this.log.debug({ err: error.message }, 'stdin closed'));

    // 'exit', not the result promise: the promise also waits for every holder of the pipes, and a
    // grandchild that inherited stderr would hide the exit until it, too, is gone.
    this.process.on('exit', (code, signal) => {
      const done = () => this.finish({ code, signal }, events);
      // The pipes can still hold the child's last lines when 'exit' fires: its last answers on
      // stdout, and on stderr the line that says why it failed (reported with the exit, so it
      // must be read first). A grandchild holding a pipe open would keep it from ending: bounded.
      const open = [this.process.stdout, this.process.stderr].filter((stream) => stream !== null && !stream.readableEnded);
      if (open.length === 0) return done();
      let left = open.length;
      const grace = setTimeout(done, STDOUT_DRAIN_MS);
      for (const stream of open) {
        stream?.once('end', () => {
          left -= 1;
          if (left > 0) return;
          clearTimeout(grace);
          done();
        });
      }
    });
    void this.process.then((result) => {
      // A spawn failure (missing command) has no 'exit' event; the result is all we get.
      if (result.failed && result.exitCode === undefined && !result.signal) this.finish({ code: null, signal: null, spawnError: spawnFailure(result) }, events);
    });
    LIVE.add(this);
  }

  private finish(exit: ChildExit, events: ChildEvents): void {
    if (this.exited !== undefined) return;
    this.exited = exit;
    LIVE.delete(this);
    // Helpers the server started (its process group) must not outlive it: SIGTERM now, SIGKILL
    // after the grace for any that ignore it.
    if (this.groupAlive()) {
      this.signalGroup('SIGTERM');
      this.groupGone = this.reapGroup();
    }
    for (const wake of this.exitWaiters.splice(0)) wake();
    events.onExit(exit);
  }

  /**
   * Waits up to afterTermMs for the group to go, then SIGKILLs what is left. Until then the group
   * stays in LINGERING, so a daemon exiting meanwhile still kills it. What cannot be reached: a
   * helper that left the group (setsid) once the daemon itself is SIGKILLed; under systemd the
   * unit's cgroup takes care of those.
   */
  private async reapGroup(): Promise<void> {
    LINGERING.add(this);
    const deadline = Date.now() + this.shutdown.afterTermMs;
    while (this.groupAlive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS).unref());
    if (this.groupAlive()) {
      this.log.warn({ childPid: this.pid }, 'helpers of the server ignored SIGTERM; sending SIGKILL to its process group');
      this.signalGroup('SIGKILL');
    }
    LINGERING.delete(this);
  }

  /** True while any process of the child's group exists. */
  private groupAlive(): boolean {
    if (this.pid === undefined) return false;
    try {
      process.kill(-this.pid, 0);
      return true;
    } catch (error) {
      return (error as { code?: unknown }).code === 'EPERM';
    }
  }

  /** Signals the child's whole process group (it leads its own: spawned detached). */
  private signalGroup(signal: NodeJS.Signals): void {
    if (this.pid === undefined) return;
    try {
      process.kill(-this.pid, signal);
    } catch {
      // The group is already gone.
    }
  }

  /** Last resort when the daemon itself exits: no waiting, no staging. */
  killNow(): void {
    this.signalGroup('SIGKILL');
  }

  get alive(): boolean {
    return this.exited === undefined;
  }

  /** Its last stderr lines that say something (stack frames left out), oldest first. */
  get stderrTail(): string[] {
    return this.tail.lines();
  }

  /**
   * Writes one already-serialized message, newline included: 'closed' when the child cannot take
   * it, 'full' when it stopped reading. A pipe needs nothing but the text (the id and method the
   * seam also offers are for transports that route by them).
   */
  write(line: string): WriteOutcome {
    const stdin = this.stdinFor();
    if (typeof stdin === 'string') return stdin;
    // A busy child leaves lines queued in the stream for tens of ms: as strings they outlive a
    // young-generation GC and fill the old one (50 sessions x 64 KiB: ~3 MiB queued, 100 MB/s
    // promoted). Encoded now, the string dies young and the bytes wait outside the JS heap;
    // measured: RSS peak 205 -> 183 MB and ~10 % less CPU per call. Small lines gain nothing.
    this.coalesce(stdin);
    stdin.write(line.length > ENCODE_BEFORE_QUEUE_CHARS ? Buffer.from(line) : line);
    return 'sent';
  }

  /**
   * Writes a message of `bytes` bytes (newline included) that `encode` puts into the buffer it is
   * given, a reused one: a fresh 64 KiB buffer per large request would live until the next GC, and
   * the allocator keeps the peak such churn once needed.
   */
  writeEncoded(bytes: number, encode: (target: Buffer) => void): WriteOutcome {
    const stdin = this.stdinFor();
    if (typeof stdin === 'string') return stdin;
    const buffer = this.lineBuffers.take(bytes);
    encode(buffer);
    this.coalesce(stdin);
    // The callback runs once the pipe has taken the bytes (or failed): only then may they be overwritten.
    stdin.write(buffer.length === bytes ? buffer : buffer.subarray(0, bytes), () => this.lineBuffers.give(buffer));
    return 'sent';
  }

  /**
   * Holds this event-loop turn's writes and sends them together when the turn ends: the requests
   * of many clients read in one turn reach the child in one writev and wake it once, not once
   * each. Measured with 50 concurrent callers: about a fifth less CPU per call in the proxy and
   * half in the child. A turn's end is moments away, so no write waits longer than that; ending
   * stdin (a stop) sends what is held. The price: a child that died is noticed when the turn's
   * writes go out, not at the first of them, so a crash fails the requests of that one turn.
   */
  private coalesce(stdin: Stdin): void {
    if (this.holding) return;
    this.holding = true;
    stdin.cork();
    setImmediate(this.sendHeld);
  }

  private readonly sendHeld = (): void => {
    this.holding = false;
    this.process.stdin?.uncork();
  };

  /** A pipe holds nothing per request: the cancellation that follows is all the child needs. */
  abandon(): void {}

  private stdinFor(): Stdin | 'closed' | 'full' {
    if (!this.writable) return 'closed';
    const stdin = this.process.stdin as NonNullable<typeof this.process.stdin>;
    if (stdin.writableLength > MAX_STDIN_BACKLOG_BYTES) return 'full';
    return stdin;
  }

  /**
   * False from the moment the child's input breaks (it died: EPIPE comes before the 'exit' event)
   * or a stop began, so new requests wait for the restart instead of failing against a corpse.
   */
  get writable(): boolean {
    const stdin = this.process.stdin;
    return this.exited === undefined && this.stopping === undefined && stdin !== null && !stdin.destroyed && !stdin.errored;
  }

  /** Idempotent staged stop: close stdin, wait, SIGTERM, wait, SIGKILL (PROTOCOL.md §5). */
  stop(): Promise<void> {
    this.stopping ??= this.runShutdown();
    return this.stopping;
  }

  private async runShutdown(): Promise<void> {
    if (this.exited === undefined) {
      this.process.stdin?.end();
      if (!(await this.waitForExit(this.shutdown.afterStdinCloseMs))) {
        this.log.info({ childPid: this.pid }, 'server did not exit after stdin closed; sending SIGTERM');
        this.signalGroup('SIGTERM');
        if (!(await this.waitForExit(this.shutdown.afterTermMs))) {
          this.log.warn({ childPid: this.pid }, 'server ignored SIGTERM; sending SIGKILL');
          this.signalGroup('SIGKILL');
          await this.waitForExit(5000);
        }
      }
    }
    // A stop is done when the helpers are gone too.
    await this.groupGone;
  }

  private waitForExit(ms: number): Promise<boolean> {
    if (this.exited !== undefined) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      timer.unref();
      this.exitWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

function spawn(config: ServerConfig) {
  return execa(config.command, [...config.args], {
    cwd: config.cwd,
    env: config.env,
    extendEnv: false,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    encoding: 'buffer',
    // We run our own stdin -> SIGTERM -> SIGKILL sequence; execa's would race it.
    forceKillAfterDelay: false,
    // Its own process group, so a stop reaches the helpers a server spawns; the exit hook below
    // replaces execa's cleanup, which does not apply to detached children.
    detached: true,
    windowsHide: true,
  });
}

function spawnFailure(result: { code?: string; originalMessage?: string; shortMessage?: string }): string {
  if (result.code === 'ENOENT') return 'command not found';
  if (result.code === 'EACCES') return 'command is not executable';
  return result.originalMessage ?? result.shortMessage ?? 'spawn failed';
}
