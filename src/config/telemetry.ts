// `telemetry` (OTLP tracing) resolved from the config file and the standard OTEL_* variables.
// The file wins over the environment key by key, so a unit's OTEL_* defaults never override what
// the operator wrote; OTEL_SDK_DISABLED=true is the one exception, a kill switch that needs no edit.
import type { PathSegment } from './errors.js';
import { substitute } from './interpolate.js';

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface TelemetryConfig {
  /** Full URL the spans are POSTed to (…/v1/traces). */
  readonly endpoint: string;
  /** Sent with every export (credentials of a hosted backend): never logged. */
  readonly headers: Readonly<Record<string, string>>;
  readonly protocol: OtlpProtocol;
  /** Fraction of new traces kept, 0..1; a request that arrives in a trace follows its sampled flag when parentBased. */
  readonly sampleRatio: number;
  readonly parentBased: boolean;
  readonly serviceName: string;
}

/** `telemetry` as the schema parsed it (values not yet `${VAR}`-expanded). */
export interface RawTelemetry {
  readonly otlp?: { readonly endpoint?: string | undefined; readonly headers?: Readonly<Record<string, string>> | undefined; readonly protocol?: OtlpProtocol | undefined } | undefined;
  readonly sampleRatio?: number | undefined;
  readonly serviceName?: string | undefined;
}

export type Report = (path: readonly PathSegment[], problem: string) => void;

const DEFAULT_SERVICE = 'mcp-switchboard';
const TRACES_PATH = '/v1/traces';

/**
 * Undefined when tracing is off: neither the file nor OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT names
 * a collector, or OTEL_SDK_DISABLED is true. Problems go to `report` (one line each, naming the key
 * or variable, never a header value).
 */
export function resolveTelemetry(written: RawTelemetry | undefined, env: NodeJS.ProcessEnv, report: Report): TelemetryConfig | undefined {
  if (env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true') return undefined;
  const otlp = written?.otlp;
  const endpoint = resolveEndpoint(otlp?.endpoint, env, report);
  if (endpoint === undefined) {
    if (written !== undefined) report(['telemetry', 'otlp', 'endpoint'], 'required (or set OTEL_EXPORTER_OTLP_ENDPOINT)');
    return undefined;
  }
  const headers: Record<string, string> = {};
  if (otlp?.headers !== undefined) {
    for (const [name, value] of Object.entries(otlp.headers)) headers[name] = substitute(value, ['telemetry', 'otlp', 'headers', name], env, report).value;
  } else {
    const listed = env['OTEL_EXPORTER_OTLP_TRACES_HEADERS'] ?? env['OTEL_EXPORTER_OTLP_HEADERS'];
    if (listed !== undefined) Object.assign(headers, parseHeaderList(listed, report));
  }
  const protocol = otlp?.protocol ?? envProtocol(env, report);
  const sampler = written?.sampleRatio !== undefined ? { ratio: written.sampleRatio, parentBased: true } : envSampler(env, report);
  const serviceName = written?.serviceName ?? (env['OTEL_SERVICE_NAME']?.trim() || DEFAULT_SERVICE);
  return { endpoint, headers, protocol, sampleRatio: sampler.ratio, parentBased: sampler.parentBased, serviceName };
}

function resolveEndpoint(written: string | undefined, env: NodeJS.ProcessEnv, report: Report): string | undefined {
  // Per the OTLP exporter spec: the signal's own variable is the full URL, the general one a base.
  const [text, full, where]: [string | undefined, boolean, readonly PathSegment[]] =
    written !== undefined
      ? [substitute(written, ['telemetry', 'otlp', 'endpoint'], env, report).value, false, ['telemetry', 'otlp', 'endpoint']]
      : env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']
        ? [env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'], true, ['env', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']]
        : [env['OTEL_EXPORTER_OTLP_ENDPOINT'] || undefined, false, ['env', 'OTEL_EXPORTER_OTLP_ENDPOINT']];
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    report(where, 'expected an http:// or https:// URL');
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    report(where, 'expected an http:// or https:// URL');
    return undefined;
  }
  // A URL given in the file that already ends in /v1/traces is taken as is (what most people paste).
  if (full || url.pathname.endsWith(TRACES_PATH)) return url.href;
  return url.href.replace(/\/?$/, '') + TRACES_PATH;
}

/** `OTEL_EXPORTER_OTLP_HEADERS`: `name=value,name2=value2`, values percent-encoded (W3C baggage format). */
export function parseHeaderList(text: string, report: Report): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    const name = eq > 0 ? part.slice(0, eq).trim() : '';
    if (name === '') {
      report(['env', 'OTEL_EXPORTER_OTLP_HEADERS'], 'expected name=value pairs separated by commas');
      continue;
    }
    let value = part.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // Not percent-encoded after all: kept as written.
    }
    headers[name] = value;
  }
  return headers;
}

function envProtocol(env: NodeJS.ProcessEnv, report: Report): OtlpProtocol {
  const name = env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] !== undefined ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const value = env[name]?.trim();
  if (value === undefined || value === '') return 'http/protobuf';
  if (value === 'http/protobuf' || value === 'http/json') return value;
  report(['env', name], `"${value}" is not supported: expected "http/protobuf" or "http/json" (no grpc)`);
  return 'http/protobuf';
}

/** OTEL_TRACES_SAMPLER and its argument, as a ratio: always_on is 1, always_off 0. */
function envSampler(env: NodeJS.ProcessEnv, report: Report): { ratio: number; parentBased: boolean } {
  const name = env['OTEL_TRACES_SAMPLER']?.trim() || 'parentbased_always_on';
  const argText = env['OTEL_TRACES_SAMPLER_ARG']?.trim();
  let arg = 1;
  if (argText !== undefined && argText !== '') {
    const n = Number(argText);
    if (Number.isFinite(n) && n >= 0 && n <= 1) arg = n;
    else report(['env', 'OTEL_TRACES_SAMPLER_ARG'], 'expected a number from 0 to 1');
  }
  switch (name) {
    case 'always_on':
      return { ratio: 1, parentBased: false };
    case 'always_off':
      return { ratio: 0, parentBased: false };
    case 'traceidratio':
      return { ratio: arg, parentBased: false };
    case 'parentbased_always_on':
      return { ratio: 1, parentBased: true };
    case 'parentbased_always_off':
      return { ratio: 0, parentBased: true };
    case 'parentbased_traceidratio':
      return { ratio: arg, parentBased: true };
    default:
      report(['env', 'OTEL_TRACES_SAMPLER'], `"${name}" is not supported: expected always_on, always_off, traceidratio or a parentbased_ form of them`);
      return { ratio: 1, parentBased: true };
  }
}
