// Collects the tool lists of public MCP servers published on npm, for the discovery benchmark.
//
//   node bench/discovery/collect.mjs [--packages FILE] [--out DIR] <dir where the packages are installed> [server ...]
//
// Reads bench/discovery/packages.json, or FILE ([{server, package, bin?, file?, args?, env?}]); for each entry
// starts the package's bin over stdio from <dir>/node_modules with placeholder credentials (never
// real ones: listing tools needs none), sends initialize, notifications/initialized and tools/list
// (following nextCursor), and writes bench/discovery/catalog/<server>.json, or DIR/<server>.json, with the package's
// version and licence. Install the packages first, e.g.:
//   mkdir /tmp/mcp-catalog && cd /tmp/mcp-catalog && npm init -y && npm install --ignore-scripts <packages...>
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
let packagesFile = path.join(HERE, 'packages.json');
let outDir = path.join(HERE, 'catalog');
const positional = [];
for (let i = 0; i < argv.length; i += 1) {
  if (argv[i] === '--packages' && argv[i + 1] !== undefined) packagesFile = path.resolve(argv[(i += 1)]);
  else if (argv[i] === '--out' && argv[i + 1] !== undefined) outDir = path.resolve(argv[(i += 1)]);
  else positional.push(argv[i]);
}
const [dir, ...only] = positional;
if (dir === undefined) {
  process.stderr.write('usage: node bench/discovery/collect.mjs [--packages FILE] [--out DIR] <install dir> [server ...]\n');
  process.exit(2);
}
const entries = JSON.parse(fs.readFileSync(packagesFile, 'utf8'));
fs.mkdirSync(outDir, { recursive: true });
const TIMEOUT_MS = 30_000;

function binOf(pkgDir, pkg, wanted, file) {
  const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  // A package that ships its server without a bin names the script to run (entry.file).
  if (file !== undefined) return { manifest, file: path.join(pkgDir, file) };
  const bin = manifest.bin;
  if (typeof bin === 'string') return { manifest, file: path.join(pkgDir, bin) };
  if (bin && typeof bin === 'object') {
    const name = wanted ?? Object.keys(bin)[0];
    if (bin[name] !== undefined) return { manifest, file: path.join(pkgDir, bin[name]) };
  }
  throw new Error(`${pkg} has no bin ${wanted ?? ''}`);
}

function listTools(file, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], {
      cwd: path.dirname(file),
      env: { PATH: process.env.PATH, HOME: fs.mkdtempSync('/tmp/collect-home-'), NODE_ENV: 'production', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    let buffer = '';
    const tools = [];
    let instructions;
    let serverInfo;
    const timer = setTimeout(() => finish(new Error(`timed out; stderr: ${stderr.slice(-300)}`)), TIMEOUT_MS);
    const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
    function finish(error) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      if (error) reject(error);
      else resolve({ tools, instructions, serverInfo });
    }
    child.stderr.on('data', (chunk) => (stderr += chunk).length > 20_000 && (stderr = stderr.slice(-10_000)));
    child.on('exit', (code) => finish(new Error(`exited with ${code}; stderr: ${stderr.slice(-400)}`)));
    child.stdin.on('error', () => undefined);
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (!line.startsWith('{')) continue;
        let message;
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (message.id === 1) {
          if (message.error) return finish(new Error(`initialize: ${JSON.stringify(message.error)}`));
          instructions = message.result?.instructions;
          serverInfo = message.result?.serverInfo;
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
        } else if (typeof message.id === 'number' && message.id >= 2) {
          if (message.error) return finish(new Error(`tools/list: ${JSON.stringify(message.error)}`));
          tools.push(...(message.result?.tools ?? []));
          const cursor = message.result?.nextCursor;
          if (cursor) send({ jsonrpc: '2.0', id: message.id + 1, method: 'tools/list', params: { cursor } });
          else finish();
        } else if (message.method !== undefined && message.id !== undefined) {
          // A server request (roots/list): answer with nothing.
          send({ jsonrpc: '2.0', id: message.id, result: message.method === 'roots/list' ? { roots: [] } : {} });
        }
      }
    });
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { roots: {} }, clientInfo: { name: 'switchboard-catalog', version: '1' } } });
  });
}

const today = new Date().toISOString().slice(0, 10);
let failed = 0;
for (const entry of entries) {
  if (only.length > 0 && !only.includes(entry.server)) continue;
  // One install for all packages (<dir>/node_modules/<pkg>), or one directory per package
  // (<dir>/<pkg with / and @ as _>/node_modules/<pkg>) when their dependencies disagree.
  const shared = path.join(dir, 'node_modules', entry.package);
  const own = path.join(dir, entry.package.replace(/[/@]/g, '_'), 'node_modules', entry.package);
  const pkgDir = fs.existsSync(shared) ? shared : own;
  try {
    const { manifest, file } = binOf(pkgDir, entry.package, entry.bin, entry.file);
    const listed = await listTools(file, entry.args ?? [], entry.env ?? {});
    if (listed.tools.length === 0) throw new Error('listed no tools');
    const out = {
      server: entry.server,
      package: entry.package,
      version: manifest.version,
      license: typeof manifest.license === 'string' ? manifest.license : JSON.stringify(manifest.license ?? null),
      source: `https://www.npmjs.com/package/${entry.package}`,
      collected: today,
      method: 'tools/list over stdio (bench/discovery/collect.mjs)',
      ...(listed.instructions ? { instructions: listed.instructions } : {}),
      tools: listed.tools,
    };
    fs.writeFileSync(path.join(outDir, `${entry.server}.json`), `${JSON.stringify(out, null, 1)}\n`);
    process.stdout.write(`${entry.server}: ${listed.tools.length} tools (${entry.package}@${manifest.version}, ${out.license})\n`);
  } catch (error) {
    failed += 1;
    process.stdout.write(`${entry.server}: FAILED ${String(error.message ?? error).slice(0, 300)}\n`);
  }
}
process.exit(failed > 0 ? 1 : 0);
