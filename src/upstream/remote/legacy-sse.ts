// The legacy HTTP+SSE transport (2024-11-05): a GET stream whose first event names where to POST,
// and on which every answer and every message of the server then arrives.
import { SseReader } from './sse-reader.js';
import { describeError, type Exchange } from './http-client.js';
import type { RemoteLink } from './link.js';

/** How long the legacy transport may take to name its message endpoint, ms. */
const ENDPOINT_TIMEOUT_MS = 10_000;

export class LegacyStream {
  /** Where messages are POSTed, once the stream named it. */
  endpoint: URL | undefined;
  private stream: Exchange | undefined;

  /** `named`: the endpoint is known, messages written meanwhile may go. */
  constructor(
    private readonly link: RemoteLink,
    private readonly named: () => void,
  ) {}

  open(): void {
    const { link } = this;
    const deadline = setTimeout(() => {
      if (this.endpoint === undefined) link.lost(`no endpoint event within ${ENDPOINT_TIMEOUT_MS} ms`);
    }, ENDPOINT_TIMEOUT_MS);
    deadline.unref();
    const request: Exchange = link.http.request('GET', link.http.url, undefined, {
      response: (response) => {
        const status = response.statusCode;
        if (status === 401 && link.refused(response)) return;
        if (status < 200 || status >= 300 || !String(response.headers['content-type'] ?? '').includes('text/event-stream')) {
          response.body.resume();
          link.lost(`the SSE stream answered HTTP ${status}`);
          return;
        }
        const reader = new SseReader(
          link.maxMessageBytes,
          (event) => {
            if (event.event === 'endpoint') this.onEndpoint(event.data.toString('utf8'));
            else if (event.event === 'message' && event.data.length > 0) link.deliver(event.data, undefined);
          },
          (bytes) => link.problem(`an event of ${bytes} bytes (more than ${link.maxMessageBytes}) was dropped`),
          link.buffered,
        );
        const body = response.body;
        body.on('data', (chunk: Buffer) => reader.push(chunk));
        body.on('end', () => link.lost('the SSE stream ended'));
        body.on('error', (error) => {
          if (this.stream === request && !request.aborted) link.lost(`the SSE stream failed: ${describeError(error)}`);
        });
      },
      error: (error) => {
        if (this.stream === request) link.lost(`unreachable: ${describeError(error)}`);
      },
      done: () => clearTimeout(deadline),
    });
    this.stream = request;
  }

  close(): void {
    this.stream?.abort();
  }

  private onEndpoint(data: string): void {
    const { link } = this;
    let endpoint: URL;
    try {
      endpoint = new URL(data.trim(), link.http.url);
    } catch {
      link.lost('the SSE stream named an endpoint that is not a URL');
      return;
    }
    // Our headers (credentials) go to the server configured, never to a host its stream names.
    if (endpoint.origin !== link.http.url.origin) {
      link.lost(`the SSE stream named an endpoint on another origin (${endpoint.origin})`);
      return;
    }
    this.endpoint = endpoint;
    this.named();
  }
}
