// One JSON exchange with an authorization server, bounded in time and size: a slow or hostile
// provider must not hold requests or memory.

/** Bytes; metadata, key sets and introspection answers are a few KiB. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface FetchJsonOptions {
  readonly timeoutMs: number;
  /** A form to POST (introspection); absent: GET. */
  readonly form?: Record<string, string>;
  readonly headers?: Record<string, string>;
}

/** The parsed JSON body of a 2xx answer; throws a one-line Error otherwise (status, timeout, size, not JSON). */
export async function fetchJson(url: string, options: FetchJsonOptions): Promise<unknown> {
  const init: RequestInit = {
    method: options.form === undefined ? 'GET' : 'POST',
    headers: { accept: 'application/json', ...(options.form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }), ...options.headers },
    redirect: 'error',
    signal: AbortSignal.timeout(options.timeoutMs),
  };
  if (options.form !== undefined) init.body = new URLSearchParams(options.form).toString();
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    const cause = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${options.timeoutMs} ms` : describeFetchError(error);
    throw new Error(cause);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_RESPONSE_BYTES) {
    await response.body?.cancel();
    throw new Error(`answer larger than ${MAX_RESPONSE_BYTES} bytes`);
  }
  const text = await readBounded(response);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error('answer is not JSON');
  }
}

/**
 * A fetch for jose's key set (its `customFetch`): the same bounds on the body, which jose would
 * read whole however large. A 2xx body is read here (at most MAX_RESPONSE_BYTES, or it throws) and
 * handed on as a fresh Response; any other status goes on without its body.
 */
export async function boundedFetch(url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    // jose tells a timeout by its name; anything else is said in one line.
    if (error instanceof Error && error.name === 'TimeoutError') throw error;
    throw new Error(describeFetchError(error));
  }
  if (!response.ok) {
    await response.body?.cancel();
    return new Response(null, { status: response.status });
  }
  if (Number(response.headers.get('content-length') ?? 0) > MAX_RESPONSE_BYTES) {
    await response.body?.cancel();
    throw new Error(`answer larger than ${MAX_RESPONSE_BYTES} bytes`);
  }
  return new Response(await readBounded(response), { status: response.status, headers: { 'content-type': 'application/json' } });
}

async function readBounded(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new Error(`answer larger than ${MAX_RESPONSE_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** undici's "fetch failed" hides the reason in `cause` (ECONNREFUSED, ENOTFOUND, a TLS error). */
function describeFetchError(error: unknown): string {
  const cause = error instanceof Error ? (error as Error & { cause?: unknown }).cause : undefined;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${cause.message}` : cause.message;
  }
  return error instanceof Error ? error.message : String(error);
}
