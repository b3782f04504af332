// The connection against an in-memory transport (no process, no socket): ids minted and restored,
// answers for nobody, a transport that closes with requests in flight, the child's notifications
// and requests, the attribution of its requests to a session, and the era handshake.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../src/config/types.js';
import { resolveConfig } from '../../../src/config/load.js';
import { ErrorCode, SwitchboardError, type JsonObject, type JsonRpcId, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from '../../../src/jsonrpc/messages.js';
import { silentLogger } from '../../../src/log.js';
import { UpstreamConnection, type ConnectionHandlers } from '../../../src/upstream/connection.js';
import type { ChildExit } from '../../../src/upstream/transport.js';
import { MemoryTransport } from '../../memory-transport.js';
import type { Caller, Pending, PendingConnection } from '../../../src/upstream/types.js';
import type { Serialized } from '../../../src/wire/result-bytes.js';

/** A client session as the connection sees it: what it was answered and delivered. */
class FakeCaller implements Caller {
  readonly clientCapabilities = { sampling: {} };
  readonly answers: Array<{ response: JsonRpcResponse; serialized: Serialized | undefined }> = [];
  readonly delivered: Array<{ message: JsonRpcMessage; relatedTo: JsonRpcId | undefined }> = [];

  constructor(
    readonly key: string,
    readonly acceptsInputRequired = false,
  ) {}

  deliver(message: JsonRpcMessage, relatedTo: JsonRpcId | undefined): void {
    this.delivered.push({ message, relatedTo });
  }

  answered(_entry: Pending, response: JsonRpcResponse, serialized?: Serialized): void {
    this.answers.push({ response, serialized });
  }

  forwarded(): void {}

  taskCreated(childTaskId: string, connection: PendingConnection): string {
    return `${connection.tag}.${childTaskId}`;
  }

  /** The answer as the client would read it: the serialized text when given, else the object. */
  wire(index = 0): JsonObject {
    const answer = this.answers[index];
    if (answer === undefined) throw new Error(`no answer #${index}`);
    const { serialized, response } = answer;
    return serialized === undefined ? (response as unknown as JsonObject) : (JSON.parse(typeof serialized === 'string' ? serialized : serialized.toString()) as JsonObject);
  }
}

interface Opened {
  readonly connection: UpstreamConnection;
  readonly transport: MemoryTransport;
  readonly notifications: JsonRpcNotification[];
  readonly serverRequests: Array<{ request: JsonRpcRequest; attributed: ReturnType<UpstreamConnection['soleCaller']>; streamOwner: Pending | undefined }>;
  readonly exits: ChildExit[];
}

const opened: MemoryTransport[] = [];
afterEach(() => {
  for (const transport of opened.splice(0)) transport.close({ code: 0, signal: null });
});

function server(protocol: 'auto' | 'session' | 'stateless' = 'session', timeoutMs = 60_000): ServerConfig {
  const config = resolveConfig({ mcpServers: { kid: { command: process.execPath, protocol, timeoutMs } } }, { file: '<inline>', dir: '/tmp' }, process.env);
  const found = config.servers.find((s) => s.name === 'kid');
  if (found === undefined) throw new Error('no server kid in the config');
  return found;
}

function open(config: ServerConfig = server(), maxPending?: number): Opened {
  let transport: MemoryTransport | undefined;
  const notifications: Opened['notifications'] = [];
  const serverRequests: Opened['serverRequests'] = [];
  const exits: ChildExit[] = [];
  const handlers: ConnectionHandlers = {
    onNotification: (_connection, message) => notifications.push(message),
    // What the router asks of the connection while it handles a child's request (child-messages.ts).
    onServerRequest: (connection, request) => serverRequests.push({ request, attributed: connection.soleCaller(true), streamOwner: connection.streamOwner() }),
    onInputRequired: () => undefined,
    onExit: (_connection, exit) => exits.push(exit),
  };
  const connection = new UpstreamConnection(config, silentLogger(), handlers, {
    maxLineBytes: 1024 * 1024,
    ...(maxPending === undefined ? {} : { maxPending }),
    openTransport: (_server, events) => (transport = new MemoryTransport(events)),
  });
  if (transport === undefined) throw new Error('the connection opened no transport');
  opened.push(transport);
  return { connection, transport, notifications, serverRequests, exits };
}

function toolCall(id: JsonRpcId, meta?: JsonObject): JsonRpcRequest {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' }, ...(meta === undefined ? {} : { _meta: meta }) } };
}

function forwarded(connection: UpstreamConnection, caller: Caller, request: JsonRpcRequest): Pending {
  const outcome = connection.forward(caller, request);
  if (outcome instanceof SwitchboardError) throw outcome;
  return outcome;
}

describe('UpstreamConnection over an in-memory transport', () => {
  it("sends a client's request with a minted id and token, says its id and method to the transport, and restores both on the way back", () => {
    const { connection, transport } = open();
    const caller = new FakeCaller('s1');
    const entry = forwarded(connection, caller, toolCall('client-7', { progressToken: 'tok' }));
    const [sent] = transport.written;
    expect(typeof entry.upstreamId).toBe('number');
    expect(sent).toMatchObject({ id: entry.upstreamId, method: 'tools/call', message: { id: entry.upstreamId, method: 'tools/call' } });
    expect((sent?.message.params as { _meta: JsonObject })._meta.progressToken).toBe(entry.upstreamId);

    transport.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: entry.upstreamId, progress: 1 } });
    expect(caller.delivered).toEqual([{ message: expect.objectContaining({ params: { progressToken: 'tok', progress: 1 } }), relatedTo: 'client-7' }]);

    transport.send({ jsonrpc: '2.0', id: entry.upstreamId, result: { content: [{ type: 'text', text: 'hi' }] } });
    expect(caller.answers).toHaveLength(1);
    expect(caller.wire()).toEqual({ jsonrpc: '2.0', id: 'client-7', result: { content: [{ type: 'text', text: 'hi' }] } });
    expect(connection.pendingCount).toBe(0);
  });

  it('gives two callers that use the same id each its own answer, by the ids minted for them', () => {
    const { connection, transport } = open();
    const [a, b] = [new FakeCaller('a'), new FakeCaller('b')];
    const first = forwarded(connection, a, toolCall(1));
    const second = forwarded(connection, b, toolCall(1));
    expect(first.upstreamId).not.toBe(second.upstreamId);
    transport.send({ jsonrpc: '2.0', id: second.upstreamId, result: { who: 'b' } });
    transport.send({ jsonrpc: '2.0', id: first.upstreamId, result: { who: 'a' } });
    expect(a.wire()).toEqual({ jsonrpc: '2.0', id: 1, result: { who: 'a' } });
    expect(b.wire()).toEqual({ jsonrpc: '2.0', id: 1, result: { who: 'b' } });
  });

  it("settles the proxy's own request with the child's result, or rejects it with the child's error", async () => {
    const { connection, transport } = open();
    const listed = connection.request('tools/list', {});
    const refused = connection.request('prompts/list', {});
    const [tools, prompts] = transport.written;
    expect([tools?.method, prompts?.method]).toEqual(['tools/list', 'prompts/list']);
    transport.send({ jsonrpc: '2.0', id: prompts?.id, error: { code: ErrorCode.MethodNotFound, message: 'no prompts' } });
    transport.send({ jsonrpc: '2.0', id: tools?.id, result: { tools: [] } });
    await expect(listed).resolves.toEqual({ tools: [] });
    await expect(refused).rejects.toMatchObject({ code: ErrorCode.MethodNotFound, message: 'no prompts' });
  });

  it('drops an answer for an id it never sent (or sent and forgot), and still answers the request that waits', () => {
    const { connection, transport } = open();
    const caller = new FakeCaller('s1');
    const entry = forwarded(connection, caller, toolCall('x'));
    transport.send({ jsonrpc: '2.0', id: entry.upstreamId + 1000, result: { invented: true } });
    transport.send({ jsonrpc: '2.0', id: 'not-ours', result: {} });
    expect(caller.answers).toEqual([]);
    expect(connection.pendingCount).toBe(1);
    connection.cancel(entry, 'client gave up');
    // A late answer to a cancelled request reaches nobody.
    transport.send({ jsonrpc: '2.0', id: entry.upstreamId, result: { late: true } });
    expect(caller.answers).toEqual([]);
    expect(transport.abandoned).toEqual([entry.upstreamId]);
    expect(transport.sent('notifications/cancelled').map((w) => w.message.params)).toEqual([{ requestId: entry.upstreamId, reason: 'client gave up' }]);
  });

  it('answers an error a transport made up itself (already an object) to the caller, under its own id', () => {
    const { connection, transport } = open();
    const caller = new FakeCaller('s1');
    const entry = forwarded(connection, caller, toolCall('c-1'));
    transport.madeUp({ jsonrpc: '2.0', id: entry.upstreamId, error: { code: ErrorCode.InternalError, message: 'server kid answered HTTP 500' } }, entry.upstreamId);
    expect(caller.wire()).toEqual({ jsonrpc: '2.0', id: 'c-1', error: { code: ErrorCode.InternalError, message: 'server kid answered HTTP 500' } });
  });

  it('fails every request in flight with its own error when the transport closes, then reports the exit', async () => {
    const { connection, transport, exits } = open();
    const [a, b] = [new FakeCaller('a'), new FakeCaller('b')];
    forwarded(connection, a, toolCall('a-1'));
    forwarded(connection, b, { jsonrpc: '2.0', id: 'b-1', method: 'resources/read', params: { uri: 'file:///x' } });
    const own = connection.request('tools/list', {});
    transport.close({ code: 1, signal: null });
    expect(a.wire()).toEqual({ jsonrpc: '2.0', id: 'a-1', error: { code: ErrorCode.ConnectionClosed, message: 'server kid exited with code 1 while handling tools/call' } });
    expect(b.wire()).toEqual({ jsonrpc: '2.0', id: 'b-1', error: { code: ErrorCode.ConnectionClosed, message: 'server kid exited with code 1 while handling resources/read' } });
    await expect(own).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed, message: 'server kid exited with code 1 while handling tools/list' });
    expect(exits).toEqual([{ code: 1, signal: null }]);
    expect(connection.pendingCount).toBe(0);
    // Closed: a new request is refused at once, never registered.
    expect(connection.forward(a, toolCall('a-2'))).toMatchObject({ code: ErrorCode.ConnectionClosed });
    expect(a.answers).toHaveLength(1);
  });

  it("refuses a request beyond the pending bound, and one the transport will not take, without keeping it", () => {
    const { connection, transport } = open(server(), 1);
    const caller = new FakeCaller('s1');
    forwarded(connection, caller, toolCall(1));
    expect(connection.forward(caller, toolCall(2))).toMatchObject({ code: ErrorCode.Overloaded });
    transport.writable = false;
    transport.send({ jsonrpc: '2.0', id: transport.written[0]?.id, result: {} });
    const refused = connection.forward(caller, toolCall(3));
    expect(refused).toMatchObject({ code: ErrorCode.ConnectionClosed });
    expect(connection.pendingCount).toBe(0);
  });

  it('hands a notification to the handlers untouched, and answers the child\'s ping itself', () => {
    const { transport, notifications, serverRequests } = open();
    const log = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hello' } };
    transport.send(log);
    expect(notifications).toEqual([log]);
    transport.send({ jsonrpc: '2.0', id: 'p-1', method: 'ping' });
    expect(serverRequests).toEqual([]);
    expect(transport.written).toEqual([{ message: { jsonrpc: '2.0', id: 'p-1', result: {} }, id: 'p-1', method: undefined }]);
  });

  it("attributes a child's request to the one session with a request in flight, and to none when two are", () => {
    const { connection, transport, serverRequests } = open();
    const [a, b] = [new FakeCaller('a'), new FakeCaller('b')];
    const ofA = forwarded(connection, a, toolCall('a-1'));
    const sampling = { jsonrpc: '2.0', id: 's-1', method: 'sampling/createMessage', params: { messages: [] } };
    transport.send(sampling);
    expect(serverRequests[0]?.request).toEqual(sampling);
    expect(serverRequests[0]?.attributed).toEqual({ caller: a, latest: ofA });
    const ofB = forwarded(connection, b, toolCall('b-1'));
    transport.send({ ...sampling, id: 's-2' });
    expect(serverRequests[1]?.attributed).toEqual({ callers: 2 });
    // A remote server says which request's stream carried its request: that request's session.
    transport.send({ ...sampling, id: 's-3' }, ofB.upstreamId);
    expect(serverRequests[2]?.streamOwner).toBe(ofB);
    expect(connection.latestOf(b)).toBe(ofB);
  });

  it('keeps counting a session that just cancelled a request as involved: the child may still ask for it', () => {
    const { connection, transport, serverRequests } = open();
    const [a, b] = [new FakeCaller('a'), new FakeCaller('b')];
    const ofA = forwarded(connection, a, toolCall('a-1'));
    forwarded(connection, b, toolCall('b-1'));
    connection.cancel(ofA, 'gave up');
    transport.send({ jsonrpc: '2.0', id: 's-1', method: 'elicitation/create', params: {} });
    expect(serverRequests[0]?.attributed).toEqual({ callers: 2 });
  });

  it('names a task by its creator, and finds the creator of a status notification', () => {
    const { connection, transport } = open();
    const caller = new FakeCaller('a');
    const entry = forwarded(connection, caller, { jsonrpc: '2.0', id: 't-1', method: 'tools/call', params: { name: 'slow', task: { ttl: 1000 } } });
    transport.send({ jsonrpc: '2.0', id: entry.upstreamId, result: { task: { taskId: 'child-task', status: 'working' } } });
    expect(caller.wire()).toEqual({ jsonrpc: '2.0', id: 't-1', result: { task: { taskId: `${connection.tag}.child-task`, status: 'working' } } });
    expect(connection.taskOwner('child-task')).toEqual({ caller, downstreamTaskId: `${connection.tag}.child-task` });
    transport.send({ jsonrpc: '2.0', method: 'notifications/tasks/status', params: { taskId: 'child-task', status: 'completed' } });
    expect(caller.delivered.map((d) => d.message)).toEqual([{ jsonrpc: '2.0', method: 'notifications/tasks/status', params: { taskId: `${connection.tag}.child-task`, status: 'completed' } }]);
  });

  it('probes, initializes and confirms a session-era child, in that order', async () => {
    const { connection, transport } = open(server('auto'));
    transport.script = (message) =>
      message.method === 'server/discover'
        ? { jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.MethodNotFound, message: 'Method not found' } }
        : message.method === 'initialize'
          ? { jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'classic', version: '1' } } }
          : undefined;
    const identity = await connection.initialize();
    expect(identity).toMatchObject({ era: 'session', protocolVersion: '2025-11-25', serverInfo: { name: 'classic', version: '1' } });
    expect(transport.written.map((w) => [w.method, typeof w.id])).toEqual([
      ['server/discover', 'number'],
      ['initialize', 'number'],
      ['notifications/initialized', 'undefined'],
    ]);
    expect(connection.identity).toBe(identity);
  });

  it('speaks the stateless era to a child that answers the probe and refuses initialize, and opens its listen', async () => {
    const { connection, transport } = open(server('auto'));
    transport.script = (message) =>
      message.method === 'server/discover'
        ? {
            jsonrpc: '2.0',
            id: message.id,
            result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: { listChanged: true } }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'modern', version: '1' } } },
          }
        : message.method === 'initialize'
          ? { jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.MethodNotFound, message: 'Method not found' } }
          : undefined;
    const identity = await connection.initialize();
    expect(identity).toMatchObject({ era: 'stateless', serverInfo: { name: 'modern', version: '1' } });
    expect(transport.written.map((w) => w.method)).toEqual(['server/discover', 'initialize', 'subscriptions/listen']);
    const listen = transport.sent('subscriptions/listen')[0];
    expect(listen?.id).toBe('switchboard-listen');
    expect(listen?.message.params).toMatchObject({ notifications: { toolsListChanged: true } });
    // From now on the proxy's own requests carry the envelope.
    void connection.request('tools/list', {}).catch(() => undefined);
    expect((transport.sent('tools/list')[0]?.message.params as JsonObject)._meta).toMatchObject({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28' });
  });

  it('gives a probe the child leaves unanswered its timeout, and sends no cancellation before the handshake', async () => {
    const { connection, transport } = open(server('auto', 200));
    transport.script = (message) =>
      message.method === 'initialize' ? { jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'slow', version: '1' } } } : undefined;
    const identity = await connection.initialize();
    expect(identity.era).toBe('session');
    expect(transport.sent('notifications/cancelled')).toEqual([]);
    expect(transport.abandoned).toEqual([]);
  });
});
