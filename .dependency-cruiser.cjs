// The layers of src/, top to bottom (README "Architecture"): a module may import from its own
// layer or any layer below, never from one above, and no import cycle is allowed. The stateless
// era (2026-07-28) has one folder, src/stateless/, whose modules sit in the layers of their jobs:
// its HTTP door with the transports, its door into the core with the core, its calls, listens, results and discover with the router, the
// per-request context with the session, the envelope children get with the upstreams.
// `npm run check:layers` (part of `npm test`).
const LAYERS = [
  ['cli', '^src/cli/'],
  ['index', '^src/index\\.ts$'],
  ['ops', '^src/ops/'],
  ['transport', '^src/transport/|^src/stateless/http-door\\.ts$'],
  ['core', '^src/switchboard\\.ts$|^src/stateless/core-door\\.ts$'],
  ['router', '^src/router/|^src/stateless/(calls|listens|results|discover)\\.ts$'],
  ['session', '^src/session/|^src/stateless/context\\.ts$'],
  ['catalog/upstream', '^src/(catalog|upstream)/|^src/stateless/envelope\\.ts$'],
  ['discovery', '^src/discovery/'],
  ['auth', '^src/auth/'],
  ['wire/jsonrpc/sanitize/config', '^src/(wire|jsonrpc|sanitize|config)/|^src/(log|protocol|throttle|file-watch)\\.ts$'],
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
      name: 'stateless-module-without-a-layer',
      comment: 'every module of src/stateless/ is placed in a layer in LAYERS above: give a new one its place there',
      severity: 'error',
      from: { path: '^src/stateless/', pathNot: '^src/stateless/(http-door|core-door|calls|listens|results|discover|context|envelope)\\.ts$' },
      to: {},
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
