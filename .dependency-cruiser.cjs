// The layers of src/, top to bottom (docs/ARCHITECTURE.md): a module may import from its own
// layer or any layer below, never from one above, and no import cycle is allowed. The stateless
// era (2026-07-28) is a layer of its own under the core (its calls, listens, results, discover and
// per-request context); its HTTP door sits with the other transports (transport/stateless-http.ts)
// and the envelope its children get with the upstreams (upstream/stateless-envelope.ts).
const LAYERS = [
  ['cli', '^src/cli/'],
  ['index', '^src/index\\.ts$'],
  ['ops', '^src/ops/'],
  ['transport', '^src/transport/'],
  ['core', '^src/switchboard\\.ts$'],
  ['stateless', '^src/stateless/'],
  ['router', '^src/router/'],
  ['limits', '^src/limits/'],
  ['session', '^src/session/'],
  ['catalog/upstream', '^src/(catalog|upstream)/'],
  ['search', '^src/search/'],
  // Auth by side (src/auth/README.md): inbound/ is who a client calling us is (tokens, OAuth
  // verification, identities), outbound/ the proxy as the OAuth client of a remote server. Both
  // read only config, jsonrpc and log, so they sit under the transports and the upstreams that
  // ask them; the view an identity is granted needs the catalog and stays with the transports
  // (transport/access.ts).
  ['auth', '^src/auth/'],
  // Tracing is asked by the transports (HTTP spans), the router (MCP spans) and the upstreams
  // (context out), so it sits under all of them and reads only config, wire and jsonrpc.
  ['telemetry', '^src/telemetry/'],
  ['wire/jsonrpc/sanitize/config', '^src/(wire|jsonrpc|sanitize|config)/|^src/(log|protocol|throttle|file-watch|rotating-log)\\.ts$'],
];

const upward = [];
for (let i = 1; i < LAYERS.length; i++) {
  const [name, path] = LAYERS[i];
  const above = LAYERS.slice(0, i).map(([, p]) => `(${p})`).join('|');
  upward.push({
    name: `no-upward-from-${name.replace(/\W+/g, '-')}`,
    comment: `${name} sits below ${LAYERS.slice(0, i).map(([n]) => n).join(', ')}: it must not import them`,
    severity: 'error',
    from: { path },
    to: { path: above },
  });
}

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'auth-sides-apart',
      comment: 'auth/inbound (clients calling us) and auth/outbound (us calling remote servers) share nothing: each changes alone',
      severity: 'error',
      from: { path: '^src/auth/(inbound|outbound)/' },
      to: { path: '^src/auth/', pathNot: '^src/auth/$1/' },
    },
    {
      name: 'auth-by-side',
      comment: 'every auth module belongs to a side: src/auth/inbound/ or src/auth/outbound/',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/auth/[^/]+$' },
    },
    {
      name: 'no-circular',
      comment: 'an import cycle (type-only imports included) ties modules that should change apart',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    // Packages that name their entry points in `exports` (the SDK's subpaths) resolve like Node does.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
