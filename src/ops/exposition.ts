// A writer of the Prometheus text exposition format (0.0.4): HELP/TYPE headers, escaped labels, samples.
//
// Our own rather than prom-client: prom-client's metrics are updated per event through label
// objects (~0.5 µs per labelled counter increment, ~0.4 µs per histogram observation, measured on
// our 2-core CI machine, against ~15 ns for our typed-array counters), and it cannot expose a
// histogram accumulated elsewhere. Here everything is read from core state at scrape time.

export type MetricType = 'counter' | 'gauge' | 'histogram';
export type Labels = Readonly<Record<string, string>>;

/** Label values may hold anything a server or a config names; the format escapes `\`, `"` and newlines. */
export function escapeLabelValue(value: string): string {
  return /[\\"\n]/.test(value) ? value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') : value;
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** A sample value: integers as written, floats in full precision, infinities as the format spells them. */
function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

function formatLabels(labels: Labels | undefined): string {
  if (labels === undefined) return '';
  const parts: string[] = [];
  for (const [name, value] of Object.entries(labels)) parts.push(`${name}="${escapeLabelValue(value)}"`);
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

export class Exposition {
  private readonly lines: string[] = [];

  /** Starts a metric family; its samples follow. A family with no samples is still announced. */
  family(name: string, type: MetricType, help: string): this {
    this.lines.push(`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`);
    return this;
  }

  sample(name: string, labels: Labels | undefined, value: number): this {
    this.lines.push(`${name}${formatLabels(labels)} ${formatValue(value)}`);
    return this;
  }

  /**
   * A histogram's samples from non-cumulative bucket counts: `counts[i]` observations fell at or
   * below `bounds[i]` (seconds) and above the previous bound; `counts[bounds.length]` above all.
   */
  histogram(name: string, labels: Labels, bounds: readonly number[], counts: ArrayLike<number>, sum: number): this {
    let cumulative = 0;
    for (let i = 0; i < bounds.length; i++) {
      cumulative += counts[i] ?? 0;
      this.sample(`${name}_bucket`, { ...labels, le: formatValue(bounds[i] as number) }, cumulative);
    }
    cumulative += counts[bounds.length] ?? 0;
    this.sample(`${name}_bucket`, { ...labels, le: '+Inf' }, cumulative);
    this.sample(`${name}_sum`, labels, sum);
    this.sample(`${name}_count`, labels, cumulative);
    return this;
  }

  text(): string {
    return this.lines.length === 0 ? '' : `${this.lines.join('\n')}\n`;
  }
}

/** The content type Prometheus asks for and gets. */
export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
