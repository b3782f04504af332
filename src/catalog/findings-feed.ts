// Sanitization findings as operators watch them: counts by (rule, action) for /metrics and the last
// few findings for the status page. The catalog reports here as it sanitizes a server's lists;
// nothing on the request path touches it.

/** One finding as reported: the shape of an audit record's first fields, so a record can be passed as is. */
export interface FindingNote {
  readonly server: string;
  /** The entity's original name ('' for a server's instructions). */
  readonly tool: string;
  readonly rule: string;
  readonly action: string;
  /** RFC 3339; now when absent. */
  readonly time?: string;
}

export interface RecentFinding {
  readonly time: string;
  readonly server: string;
  readonly tool: string;
  readonly rule: string;
  readonly action: string;
}

export interface FindingCount {
  readonly rule: string;
  readonly action: string;
  readonly count: number;
}

/** Findings the status page shows, newest first; older ones are in the sanitization log. */
export const RECENT_FINDINGS = 50;
/** Distinct (rule, action) pairs counted; rule ids are a fixed set, this only bounds a caller's mistake. */
const MAX_SERIES = 256;

export class FindingsFeed {
  private readonly counts = new Map<string, { rule: string; action: string; count: number }>();
  /** Ring of the latest findings; `next` is where the next one goes. */
  private readonly ring: RecentFinding[] = [];
  private next = 0;

  /** Counts one finding and keeps it among the recent ones. */
  record(note: FindingNote): void {
    this.count(note.rule, note.action, 1);
    const entry: RecentFinding = {
      time: note.time ?? new Date().toISOString(),
      server: note.server,
      tool: note.tool,
      rule: note.rule,
      action: note.action,
    };
    if (this.ring.length < RECENT_FINDINGS) this.ring.push(entry);
    else this.ring[this.next] = entry;
    this.next = (this.next + 1) % RECENT_FINDINGS;
  }

  /** Counts findings without keeping them as recent ones (a summary of a listing). */
  count(rule: string, action: string, count = 1): void {
    if (!(count > 0)) return;
    const key = `${rule}\u0000${action}`;
    const series = this.counts.get(key);
    if (series !== undefined) series.count += count;
    else if (this.counts.size < MAX_SERIES) this.counts.set(key, { rule, action, count });
  }

  totals(): FindingCount[] {
    return [...this.counts.values()].map(({ rule, action, count }) => ({ rule, action, count }));
  }

  /** The latest findings, newest first. */
  recent(): RecentFinding[] {
    const out: RecentFinding[] = [];
    for (let i = 1; i <= this.ring.length; i++) {
      const entry = this.ring[(this.next - i + RECENT_FINDINGS) % RECENT_FINDINGS];
      if (entry !== undefined) out.push(entry);
    }
    return out;
  }
}
