// Scenario: config reloads, every --reload-every ms: server c redefined (restarted under load: its
// in-flight calls must end in an error naming c, never hang), server d added or removed (sessions
// must see tools/list_changed on their GET streams). Old children must be gone at the end like all
// others.
import { now } from '../../bench-lib.js';
import type { RunContext } from '../context.js';

export class ConfigReloads {
  private generation = 0;
  private lastReloadAt = 0;

  constructor(private readonly ctx: RunContext) {}

  /** The run begins: the first reload is due one interval after `at`. */
  start(at: number): void {
    this.lastReloadAt = at;
  }

  /** Reloads when one is due. */
  async tick(): Promise<void> {
    const { ctx } = this;
    if (ctx.options.reloadMs === 0 || now() - this.lastReloadAt < ctx.options.reloadMs) return;
    this.lastReloadAt = now();
    this.generation += 1;
    ctx.proxy.writeConfig(this.generation);
    // The file watch would notice too; SIGHUP makes the reload happen now (and a second, identical
    // reload from the watch is a no-op: same content).
    ctx.proxy.reload();
    ctx.stats.reloads++;
  }
}
