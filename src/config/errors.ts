// Config problems as one-line, path-naming messages that never echo secrets.

export type PathSegment = string | number;

export interface ConfigProblem {
  /** JSON path like `$.mcpServers.fs.command`, or a `line:column` position for syntax errors. */
  readonly path: string;
  readonly problem: string;
}

/** More problems than this are summarised, so a broken file still yields a readable single line. */
const MAX_LISTED = 3;

export class ConfigError extends Error {
  /** Exit code the CLI uses for user errors (bad flags, bad config). */
  readonly exitCode = 2;
  readonly file: string;
  readonly problems: readonly ConfigProblem[];

  constructor(file: string, problems: readonly ConfigProblem[]) {
    super(formatProblems(file, problems));
    this.name = 'ConfigError';
    this.file = file;
    this.problems = Object.freeze([...problems]);
  }
}

export function formatProblems(file: string, problems: readonly ConfigProblem[]): string {
  const listed = problems.slice(0, MAX_LISTED).map((p) => (p.path === '' ? p.problem : `${p.path}: ${p.problem}`));
  const rest = problems.length - listed.length;
  const tail = rest > 0 ? ` (and ${rest} more)` : '';
  return oneLine(`${file}: ${listed.join('; ')}${tail}`);
}

/** Callers log these messages line-wise; a stray newline would split one error into two. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ');
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function jsonPath(segments: readonly PathSegment[]): string {
  let out = '$';
  for (const seg of segments) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (IDENTIFIER.test(seg)) out += `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

const MAX_SHOWN = 60;

/** A short rendering of an offending value for `got ...`; callers must not pass secret values. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string': {
      const shown = JSON.stringify(value);
      return shown.length > MAX_SHOWN ? `${shown.slice(0, MAX_SHOWN - 4)}..."` : shown;
    }
    case 'number':
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

/** Collects problems and warnings while resolving, so one run reports everything it found. */
export class Findings {
  readonly problems: ConfigProblem[] = [];
  readonly warnings: string[] = [];

  constructor(readonly file: string) {}

  error(path: readonly PathSegment[], problem: string): void {
    this.problems.push({ path: jsonPath(path), problem });
  }

  warn(path: readonly PathSegment[], problem: string): void {
    this.warnings.push(oneLine(`${this.file}: ${jsonPath(path)}: ${problem}`));
  }

  /** Marks where a section's checks start, to tell whether that section added problems. */
  get count(): number {
    return this.problems.length;
  }

  throwIfAny(): void {
    if (this.problems.length > 0) throw new ConfigError(this.file, this.problems);
  }
}
