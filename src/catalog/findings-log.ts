// The review's findings on their way to the sanitization log: each once, at most a budget per entity
// and rule, appended in the background (a slow or full disk never delays a listing).
import { Throttle } from '../throttle.js';
import type { Logger } from '../log.js';
import type { AuditLog, AuditRecord } from '../sanitize/index.js';

/** A finding as operators watch it (status page, metrics). */
export interface FindingNote {
  readonly server: string;
  readonly tool: string;
  readonly rule: string;
  readonly action: string;
  readonly time: string;
}

/** Log records per entity and rule per window (10 min); the rest are counted (see withinBudget). */
const FINDINGS_PER_ENTITY = 20;
const FINDINGS_WINDOW_MS = 10 * 60_000;
/** Finding keys remembered when no log file dedupes them. */
const MAX_SEEN_KEYS = 100_000;

export class FindingsLog {
  private readonly seen = new Set<string>();
  private readonly findingBudget = new Throttle(FINDINGS_PER_ENTITY, FINDINGS_WINDOW_MS, 100_000);
  private readonly dropWarnings = new Throttle(1, 60_000);

  /** `auditLog` undefined: findings are only reported (tests, `switchboard tools`). */
  constructor(
    private readonly auditLog: AuditLog | undefined,
    private readonly log: Logger,
  ) {}

  async close(): Promise<void> {
    await this.auditLog?.close();
  }

  /** Resolves once the findings handed to `write` so far are in the log (or failed to be). */
  async settled(): Promise<void> {
    await this.auditLog?.settled();
  }

  /**
   * At most FINDINGS_PER_ENTITY records per entity and rule per window reach the log: a server that
   * rewrites a tool in a loop (a counter in its description) makes a new finding each time, and
   * those must not rotate the earlier, real findings out of the log. The next record logged for
   * that entity and rule says how many were left out.
   */
  private withinBudget(records: readonly AuditRecord[]): AuditRecord[] {
    const out: AuditRecord[] = [];
    for (const record of records) {
      const verdict = this.findingBudget.take(`${record.server_id}\u0000${record.entity}\u0000${record.tool}\u0000${record.rule}`);
      if (!verdict.allowed) continue;
      out.push(verdict.dropped > 0 ? { ...record, suppressed: verdict.dropped } : record);
    }
    return out;
  }

  write(records: readonly AuditRecord[], onFinding: ((note: FindingNote) => void) | undefined): void {
    const auditLog = this.auditLog;
    // The log learns a key only when its append completes, and listings can follow each other
    // faster (each server's first listing reviews the whole catalog): keys are remembered here too,
    // bounded; past the bound a finding may be reported twice, never written twice.
    const fresh = records.filter((record) => !this.seen.has(record.key) && auditLog?.has(record.key) !== true);
    if (this.seen.size > MAX_SEEN_KEYS) this.seen.clear();
    for (const record of fresh) this.seen.add(record.key);
    for (const record of fresh) onFinding?.({ server: record.server, tool: record.tool, rule: record.rule, action: record.action, time: record.time });
    if (auditLog === undefined) return;
    const logged = this.withinBudget(fresh);
    if (logged.length === 0) return;
    void auditLog.append(logged).then((result) => {
      if (result.ok) {
        if (result.dropped !== undefined && this.dropWarnings.take('queue').allowed) {
          this.log.warn({ dropped: auditLog.dropped, file: auditLog.path }, 'sanitization log writes are falling behind; findings were left out of the log');
        }
        return;
      }
      this.log.error({ err: result.error.message, file: auditLog.path }, 'could not write the sanitization log');
      // Not written: the next listing tries these records again.
      for (const record of fresh) this.seen.delete(record.key);
    });
  }
}
