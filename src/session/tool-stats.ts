// Tool calls counted per server and tool: outcomes (a result, the tool's own isError, a protocol
// error) and latency. Series are made once per tool and kept; beyond MAX_TOOL_SERIES the rest of
// a server's tools count as its `other`, so a server listing thousands of tools (or renaming them on
// every list) cannot grow /metrics without bound.
import type { JsonRpcMessage } from '../jsonrpc/messages.js';
import type { OutcomeCounter } from '../upstream/types.js';

/** Distinct (server, tool) series kept; later tools roll into their server's `other`. */
export const MAX_TOOL_SERIES = 500;
/** The tool label of a server's calls beyond the cap. */
export const OTHER_TOOL = 'other';

/** Upper bounds of the per-tool latency buckets, ms: coarser than the per-method ones (series multiply). */
export const TOOL_LATENCY_BOUNDS_MS = [5, 25, 100, 250, 1000, 2500, 10_000, 30_000, 60_000] as const;

/** How a call ended, as /metrics names it. */
export const TOOL_OUTCOMES = ['result', 'tool_error', 'protocol_error'] as const;

export class ToolSeries implements OutcomeCounter {
  /** Calls by TOOL_OUTCOMES index. */
  readonly outcomes = new Float64Array(TOOL_OUTCOMES.length);
  /** Answered calls per latency bucket (the bounds, then +Inf), not cumulative. */
  readonly latency = new Float64Array(TOOL_LATENCY_BOUNDS_MS.length + 1);
  latencySumMs = 0;

  constructor(
    readonly server: string,
    readonly tool: string,
  ) {}

  record(response: JsonRpcMessage, ms: number): void {
    const error = (response as { error?: unknown }).error;
    const outcome = error !== undefined ? 2 : (response as { result?: { isError?: unknown } }).result?.isError === true ? 1 : 0;
    this.outcomes[outcome]! += 1;
    let bucket = 0;
    while (bucket < TOOL_LATENCY_BOUNDS_MS.length && ms > (TOOL_LATENCY_BOUNDS_MS[bucket] as number)) bucket += 1;
    this.latency[bucket]! += 1;
    this.latencySumMs += ms;
  }
}

export class ToolStats {
  private readonly byServer = new Map<string, Map<string, ToolSeries>>();
  private count = 0;

  /** The series of `tool` of `server` (its original name), made on first use. */
  series(server: string, tool: string): ToolSeries {
    let tools = this.byServer.get(server);
    if (tools === undefined) this.byServer.set(server, (tools = new Map()));
    const known = tools.get(tool);
    if (known !== undefined) return known;
    const name = this.count < MAX_TOOL_SERIES ? tool : OTHER_TOOL;
    let series = tools.get(name);
    if (series === undefined) {
      series = new ToolSeries(server, name);
      tools.set(name, series);
      this.count += 1;
    }
    return series;
  }

  *all(): IterableIterator<ToolSeries> {
    for (const tools of this.byServer.values()) yield* tools.values();
  }
}
