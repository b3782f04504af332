// /healthz must answer 200 within 5 s all through the run; polled every 250 ms.
import { HttpClient } from './lib/http.js';
import { sleep } from './lib/time.js';
import type { RunContext } from './context.js';

export class HealthProbe {
  ok = 0;
  failed = 0;
  maxMs = 0;
  private running = true;
  private done: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: RunContext) {}

  start(): void {
    this.done = this.loop();
  }

  /** Stops polling and waits for the probe in flight. */
  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }

  private async loop(): Promise<void> {
    const { ctx } = this;
    const probe = new HttpClient('127.0.0.1', ctx.proxy.port, 5000);
    while (this.running && ctx.proxy.exited === undefined) {
      const r = await probe.request({ method: 'GET', path: '/healthz' });
      this.maxMs = Math.max(this.maxMs, r.ms);
      if (r.status === 200 && r.body.includes('"ok"')) this.ok += 1;
      else if (ctx.proxy.exited === undefined && this.running) {
        this.failed += 1;
        ctx.stats.violation('healthz', 'healthz', `GET /healthz -> ${r.hung ? 'no answer in 5 s' : r.status} ${r.error ?? ''} ${r.body.slice(0, 200)}`);
      }
      await sleep(250);
    }
  }
}
