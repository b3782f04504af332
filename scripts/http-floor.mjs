#!/usr/bin/env node
// The floor for any Node HTTP front to MCP on this machine: a bare node:http server that answers
// Streamable HTTP calls of the `echo` tool itself (JSON replies, no child, no SDK, no routing, no
// checks). `npm run bench` measures the proxy against it, and uses a second one as the proxy's
// remote upstream. Usage: node scripts/http-floor.mjs [PORT]; prints "listening PORT" on stderr.
import http from 'node:http';
import { randomUUID } from 'node:crypto';

const ECHO_TOOL = { name: 'echo', description: 'Returns the given text unchanged.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };

function answer(message, res) {
  if (message.method === 'initialize') {
    res.setHeader('mcp-session-id', randomUUID());
    return { protocolVersion: message.params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'http-floor', version: '1.0.0' } };
  }
  if (message.method === 'tools/list') return { tools: [ECHO_TOOL] };
  if (message.method === 'tools/call') return { content: [{ type: 'text', text: message.params.arguments.text }] };
  return {};
}

const server = http.createServer((req, res) => {
  if (req.method === 'DELETE') return void res.end();
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST, DELETE' });
    return void res.end();
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let message;
    try {
      message = JSON.parse(Buffer.concat(chunks).toString());
    } catch {
      res.writeHead(400);
      return void res.end();
    }
    if (message.id === undefined) {
      res.writeHead(202);
      return void res.end();
    }
    const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: answer(message, res) });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => process.stderr.write(`listening ${server.address().port}\n`));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
