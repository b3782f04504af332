// telemetry: the file's keys and the OTEL_* variables, the file winning key by key; one-line errors
// that never echo a header value.
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/load.js';
import { parseHeaderList, resolveTelemetry, type RawTelemetry } from '../../../src/config/telemetry.js';

const dir = process.cwd();
const load = (raw: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
  resolveConfig({ mcpServers: { fs: { command: process.execPath } }, ...raw }, { file: '<inline>', dir }, env);

function resolve(written: RawTelemetry | undefined, env: NodeJS.ProcessEnv = {}) {
  const problems: string[] = [];
  const config = resolveTelemetry(written, env, (path, problem) => problems.push(`${path.join('.')}: ${problem}`));
  return { config, problems };
}

describe('telemetry config', () => {
  it('is off without a file section or an OTLP endpoint variable', () => {
    expect(load({}).telemetry).toBeUndefined();
    expect(resolve(undefined, { OTEL_SERVICE_NAME: 'x' }).config).toBeUndefined();
  });

  it('takes the endpoint as a base and appends /v1/traces, unless it already names it', () => {
    expect(resolve({ otlp: { endpoint: 'http://127.0.0.1:4318' } }).config?.endpoint).toBe('http://127.0.0.1:4318/v1/traces');
    expect(resolve({ otlp: { endpoint: 'http://tempo:4318/v1/traces' } }).config?.endpoint).toBe('http://tempo:4318/v1/traces');
    expect(resolve(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' }).config?.endpoint).toBe('http://c:4318/v1/traces');
    // The signal's own variable is a full URL, taken as is.
    expect(resolve(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:9/custom' }).config?.endpoint).toBe('http://c:9/custom');
  });

  it('defaults to http/protobuf, parent-based sampling of every trace, and the product name', () => {
    const { config } = resolve({ otlp: { endpoint: 'http://c:4318' } });
    expect(config).toMatchObject({ protocol: 'http/protobuf', sampleRatio: 1, parentBased: true, serviceName: 'mcp-switchboard', headers: {} });
  });

  it('reads the standard variables when the file is silent', () => {
    const { config, problems } = resolve(undefined, {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=abc%3D1, x-team=obs',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'gateway',
      OTEL_TRACES_SAMPLER: 'traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    });
    expect(problems).toEqual([]);
    expect(config).toMatchObject({ headers: { 'api-key': 'abc=1', 'x-team': 'obs' }, protocol: 'http/json', serviceName: 'gateway', sampleRatio: 0.25, parentBased: false });
  });

  it('lets the file win over the environment, key by key', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318', OTEL_EXPORTER_OTLP_HEADERS: 'k=env', OTEL_SERVICE_NAME: 'env', OTEL_TRACES_SAMPLER: 'always_off', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };
    const { config } = resolve({ otlp: { endpoint: 'http://file:4318', headers: { k: 'file' }, protocol: 'http/protobuf' }, sampleRatio: 0.5, serviceName: 'file' }, env);
    expect(config).toMatchObject({ endpoint: 'http://file:4318/v1/traces', headers: { k: 'file' }, protocol: 'http/protobuf', sampleRatio: 0.5, serviceName: 'file' });
    // A key the file leaves out still comes from the environment.
    expect(resolve({ otlp: { endpoint: 'http://file:4318' } }, env).config?.serviceName).toBe('env');
  });

  it('is turned off by OTEL_SDK_DISABLED=true, even when configured', () => {
    expect(resolve({ otlp: { endpoint: 'http://c:4318' } }, { OTEL_SDK_DISABLED: 'true' }).config).toBeUndefined();
    expect(load({ telemetry: { otlp: { endpoint: 'http://c:4318' } } }, { OTEL_SDK_DISABLED: 'TRUE' }).telemetry).toBeUndefined();
  });

  it('expands ${VAR} in header values and the endpoint', () => {
    const config = load({ telemetry: { otlp: { endpoint: '${COLLECTOR}', headers: { authorization: 'Bearer ${OTLP_KEY}' } } } }, { COLLECTOR: 'http://c:4318', OTLP_KEY: 'k-123' }).telemetry;
    expect(config?.headers).toEqual({ authorization: 'Bearer k-123' });
    expect(config?.endpoint).toBe('http://c:4318/v1/traces');
  });

  it('reports each mistake on one line naming the key or variable, never a header value', () => {
    const bad = (raw: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): string => {
      try {
        load(raw, env);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('expected a config error');
    };
    expect(bad({ telemetry: { otlp: { endpoint: 'c:4318', headers: { k: 'hush-hush' } } } })).toMatch(/telemetry\.otlp\.endpoint.*http:\/\/ or https:\/\//);
    expect(bad({ telemetry: { otlp: { endpoint: 'http://c', protocol: 'grpc' } } })).toMatch(/telemetry\.otlp\.protocol.*http\/protobuf/);
    expect(bad({ telemetry: { sampleRatio: 2, otlp: { endpoint: 'http://c' } } })).toMatch(/telemetry\.sampleRatio.*0 to 1/);
    expect(bad({ telemetry: { serviceName: 'x' } })).toMatch(/telemetry\.otlp\.endpoint.*required/);
    expect(bad({}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toMatch(/OTEL_TRACES_SAMPLER.*not supported/);
    expect(bad({}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toMatch(/OTEL_EXPORTER_OTLP_PROTOCOL.*no grpc/);
    for (const message of [bad({ telemetry: { otlp: { endpoint: 'nope', headers: { k: 'hush-hush' } } } })]) {
      expect(message.split('\n')).toHaveLength(1);
      expect(message).not.toContain('hush-hush');
    }
  });

  it('parses the header list format of OTEL_EXPORTER_OTLP_HEADERS', () => {
    const problems: string[] = [];
    expect(parseHeaderList('a=1,b = two%20words,,=x', (_p, problem) => problems.push(problem))).toEqual({ a: '1', b: 'two words' });
    expect(problems).toHaveLength(1);
  });
});
