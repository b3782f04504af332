// The client side of a legacy SSE session (GET /sse), for the SSE attacks and the SSE control.
import http from 'node:http';
import { sseEvents } from '../sse-client.js';
import { DEADLINE_MS } from './options.js';

export interface SseStream {
  status: number;
  /** The POST URL from the endpoint event; undefined when the stream was refused. */
  endpoint?: string;
  res?: http.IncomingMessage;
  req: http.ClientRequest;
  onMessage: (fn: (data: string) => void) => void;
  closed: () => boolean;
  body: () => string;
}

/**
 * A legacy SSE stream we read ourselves: resolves at the endpoint event (or with the status of a
 * refusal: 0 for a transport error, -2 when nothing came within DEADLINE_MS), then hands on messages.
 */
export function openSse(port: number, path: string, headers: Record<string, string>): Promise<SseStream> {
  return new Promise((resolve) => {
    let handler: (data: string) => void = () => {};
    let buf = '';
    let all = '';
    let closed = false;
    let settled = false;
    const req = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on('close', () => (closed = true));
      res.on('error', () => (closed = true));
      const api = { status, res, req, onMessage: (fn: (data: string) => void) => (handler = fn), closed: () => closed, body: () => all };
      if (status !== 200 || !String(res.headers['content-type'] ?? '').includes('text/event-stream')) {
        res.on('data', (chunk: string) => (all += chunk));
        res.on('end', () => resolve(api));
        return;
      }
      res.on('data', (chunk: string) => {
        if (all.length < 100_000) all += chunk;
        buf += chunk;
        const { events, rest } = sseEvents(buf);
        buf = rest;
        for (const e of events) {
          if (e.event === 'endpoint' && !settled) {
            settled = true;
            resolve({ ...api, endpoint: e.data });
          } else if (e.event === 'message') handler(e.data);
        }
      });
    });
    req.on('error', () => {
      closed = true;
      if (!settled) resolve({ status: 0, req, onMessage: () => {}, closed: () => true, body: () => '' });
      settled = true;
    });
    setTimeout(() => {
      if (!settled) {
        settled = true;
        resolve({ status: -2, req, onMessage: () => {}, closed: () => closed, body: () => '' });
      }
    }, DEADLINE_MS);
  });
}
