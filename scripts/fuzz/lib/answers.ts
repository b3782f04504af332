// What an answer must look like: no stack trace, a well-formed JSON-RPC error, the messages of a
// JSON or SSE body; where the proxy routes a path; which Origins are loopback and which foreign.
import { sseEvents } from '../../sse-client.js';

/** Recognises a stack trace or source location leaking into a body. */
export function looksLikeStack(text: string): boolean {
  return /\n\s+at [^\n]+[(\s][^\n]*:\d+:\d+\)?/.test(text) || /\bnode:internal\//.test(text) || /\/(?:dist|src)\/[\w/.-]+\.(?:js|ts):\d+/.test(text);
}

export interface RpcError { code: number; message: string }
export type Json = Record<string, unknown>;

/** A JSON-RPC error response: {jsonrpc:"2.0", id: null|string|number, error:{code:int, message:string}}. */
export function jsonRpcError(value: unknown): RpcError | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const m = value as Json;
  const e = m.error as Json | undefined;
  if (m.jsonrpc !== '2.0' || typeof e !== 'object' || e === null) return undefined;
  if (!(m.id === null || typeof m.id === 'string' || (typeof m.id === 'number' && Number.isInteger(m.id)))) return undefined;
  if (typeof e.code !== 'number' || !Number.isInteger(e.code) || typeof e.message !== 'string') return undefined;
  return { code: e.code, message: e.message };
}

export function isJsonRpcMessage(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as Json).jsonrpc === '2.0';
}


/** The JSON-RPC messages of a reply body (JSON or SSE); `bad` names what could not be read. */
export function bodyMessages(contentType: string, body: string): { messages: unknown[]; bad?: string } {
  if (body.trim() === '') return { messages: [] };
  if (contentType.includes('text/event-stream')) {
    const messages: unknown[] = [];
    for (const { data } of sseEvents(body.endsWith('\n\n') ? body : body + '\n\n').events) {
      if (data.trim() === '') continue; // priming event
      try {
        messages.push(JSON.parse(data));
      } catch {
        return { messages, bad: `SSE data is not JSON: ${data.slice(0, 80)}` };
      }
    }
    return { messages };
  }
  try {
    const parsed = JSON.parse(body) as unknown;
    return { messages: Array.isArray(parsed) ? parsed : [parsed] };
  } catch {
    return { messages: [], bad: `body is not JSON: ${body.slice(0, 80)}` };
  }
}

export type RouteKind = 'mcp' | 'messages' | 'sse' | 'ws' | 'health' | 'none';

/** Where the proxy routes a path, per SPEC.md's endpoint table. */
export function routeOf(rawPath: string, servers: ReadonlySet<string>): RouteKind {
  const q = rawPath.indexOf('?');
  const path = q === -1 ? rawPath : rawPath.slice(0, q);
  if (path === '/healthz' || path === '/readyz') return 'health';
  const slash = path.lastIndexOf('/');
  const last = path.slice(slash + 1);
  const kind: RouteKind | undefined = last === 'mcp' || last === 'messages' || last === 'sse' || last === 'ws' ? last : undefined;
  if (kind === undefined) return 'none';
  const base = path.slice(0, slash);
  if (base === '') return kind;
  if (!base.startsWith('/s/')) return 'none';
  try {
    return servers.has(decodeURIComponent(base.slice(3))) ? kind : 'none';
  } catch {
    return 'none';
  }
}

/** An Origin a browser on this machine would send for a loopback page; anything else is foreign. */
export function isLoopbackOrigin(origin: string): boolean {
  if (origin === 'null') return false;
  try {
    const host = new URL(origin).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  } catch {
    return false;
  }
}

export const FOREIGN_ORIGINS = [
  'http://evil.example',
  'https://attacker.example:8808',
  'http://127.0.0.1.evil.example',
  'http://127.evil.example',
  'http://localhost.evil.example',
  'http://127.0.0.1@evil.example',
  'http://evil.example#@127.0.0.1',
  'null',
  'not a url',
  'file://',
];
export const LOOPBACK_ORIGINS = ['http://127.0.0.1', 'http://localhost:3000', 'http://[::1]:8080', 'http://127.1.2.3'];
