// `switchboard service install|uninstall`: writes or removes the systemd unit that runs `switchboard start` as a service.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseJson } from '../config/json.js';
import { loadConfig } from '../config/load.js';
import type { SwitchboardConfig } from '../config/types.js';
import {
  DEFAULT_UNIT_NAME,
  SYSTEMD_DEFAULT_PATH,
  SYSTEM_STATE_DIR,
  UNIT_MARKER,
  protectsHome,
  renderUnit,
  unitDir,
  unitName,
  userNamespacesAllowed,
  wantedBy,
  type UnitScope,
  type UnitSpec,
} from '../ops/systemd.js';
import { defaultPinPath } from '../sanitize/pins.js';
import { UsageError } from './flags.js';
import { parseCredentials, withCredentials } from './service-credentials.js';

export const SERVICE_OPTIONS = {
  config: { type: 'string', short: 'c' },
  user: { type: 'boolean' },
  name: { type: 'string' },
  'dry-run': { type: 'boolean' },
  force: { type: 'boolean' },
  credential: { type: 'string', multiple: true },
} as const;

export const SERVICE_HELP = `Usage: switchboard service install [--user] [-c FILE] [--name NAME] [--credential NAME=PATH ...] [--dry-run] [--force]
       switchboard service uninstall [--user] [--name NAME] [--force]

install validates the config, then writes a systemd unit that runs "switchboard start -c FILE"
with this node binary and this package's absolute paths, restarts it on failure, hardens it, and
prints the commands that start it. Without --user it is a system unit in /etc/systemd/system (root
only); with --user, a unit of your own in ~/.config/systemd/user.
uninstall removes that unit file; run "systemctl [--user] disable --now NAME" first.

Options:
  -c, --config FILE   config file (default: ./proxy.config.json); the unit holds its absolute path
      --user          a user unit (systemctl --user) instead of a system unit
      --name NAME     unit name (default: ${DEFAULT_UNIT_NAME})
      --credential NAME=PATH
                      hand the file PATH to the service as systemd credential NAME (LoadCredential=),
                      which the config reads as \${credential:NAME}; repeat for each
      --dry-run       print the unit instead of writing it
      --force         replace a different unit of that name / remove one that is still enabled
`;

type ServiceFlags = ReturnType<typeof parseFlags>['values'];

function parseFlags(args: string[]) {
  return parseArgs({ args, options: SERVICE_OPTIONS, strict: true, allowPositionals: true });
}

export async function runService(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args);
  const [action, extra] = positionals;
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"; see switchboard service --help`);
  if (action === 'install') return install(values);
  if (action === 'uninstall') {
    if (values.config !== undefined) throw new UsageError('-c is not an option of "service uninstall"; see switchboard service --help');
    if (values['dry-run'] === true) throw new UsageError('--dry-run is not an option of "service uninstall"; see switchboard service --help');
    if (values.credential !== undefined) throw new UsageError('--credential is not an option of "service uninstall"; see switchboard service --help');
    return uninstall(values);
  }
  throw new UsageError(`expected "service install" or "service uninstall"${action === undefined ? '' : `, got "service ${action}"`}; see switchboard service --help`);
}

interface Target {
  readonly scope: UnitScope;
  readonly name: string;
  readonly file: string;
  /** `systemctl --user` or `systemctl`, for the commands we print. */
  readonly systemctl: string;
}

function target(values: ServiceFlags, home: string): Target {
  const scope: UnitScope = values.user === true ? 'user' : 'system';
  const name = unitName(values.name ?? DEFAULT_UNIT_NAME);
  if (name === undefined) throw new UsageError(`--name expects a unit name (letters, digits and ":_.-"), got "${values.name ?? ''}"`);
  const file = path.join(unitDir(scope, process.env, home), `${name}.service`);
  return { scope, name, file, systemctl: scope === 'user' ? 'systemctl --user' : 'systemctl' };
}

function requireRoot(t: Target, verb: string): void {
  if (t.scope === 'system' && process.getuid?.() !== 0) {
    throw new UsageError(`${verb} a system unit in ${path.dirname(t.file)} needs root: run it with sudo, or pass --user for a unit of your own`);
  }
}

/** The home a unit's processes get: a system unit runs as root, whose home comes from passwd, not $HOME (sudo may keep yours). */
function serviceHome(scope: UnitScope): string {
  return scope === 'user' ? process.env['HOME'] || os.homedir() : os.userInfo().homedir;
}

function install(values: ServiceFlags): number {
  const scope: UnitScope = values.user === true ? 'user' : 'system';
  const home = serviceHome(scope);
  const t = target(values, home);
  const dryRun = values['dry-run'] === true;
  // Before the config: a config only root may read would otherwise fail as "permission denied".
  if (!dryRun) requireRoot(t, 'installing');
  const configFile = values.config ?? 'proxy.config.json';
  const credentials = parseCredentials(values.credential);
  // The service reads ${credential:NAME} from systemd's directory: check the config as it will see them.
  const config = withCredentials(readConfigText(configFile), credentials, process.env, (env) => loadConfig(configFile, env), warn);
  for (const skipped of config.skipped) warn(`server ${skipped.name} will be skipped by the service: ${skipped.reason}`);

  const entryPath = path.join(packageRoot(), 'dist', 'cli', 'main.js');
  if (!fs.existsSync(entryPath)) {
    const problem = `${entryPath} does not exist: build the package first (npm run build)`;
    if (!dryRun) throw new UsageError(problem);
    warn(problem);
  }
  const notifyPath = findOnPath('systemd-notify', process.env['PATH']);
  const spec: UnitSpec = {
    name: t.name,
    scope,
    nodePath: process.execPath,
    entryPath,
    configPath: config.file,
    stateDir: scope === 'user' ? path.dirname(defaultPinPath({ ...process.env, HOME: home })) : SYSTEM_STATE_DIR,
    notify: notifyPath !== undefined,
    shutdownGraceMs: config.limits.shutdownGraceMs,
    listenHost: config.listen.host,
    searchPath: searchPath(config, notifyPath),
    cacheDirs: runnerCaches(config, home),
    namespaces: scope === 'system' || userNamespacesAllowed(process.getuid?.() ?? 0, namespaceSysctls()),
    credentials,
  };
  for (const p of [spec.nodePath, spec.entryPath, spec.configPath, spec.stateDir, ...spec.searchPath, ...spec.cacheDirs]) {
    // A newline would end the setting early; systemd has no way to quote one.
    if (/[\u0000-\u001f\u007f]/.test(p)) throw new UsageError(`${JSON.stringify(p)} holds a control character, which a unit file cannot carry`);
  }
  const unit = renderUnit(spec);
  warnAboutEnvironment(config, t, spec);
  if (entryPath.includes(`${path.sep}_npx${path.sep}`)) {
    warn(`${entryPath} is in npx's cache, which npm may clear; install the package (npm install -g mcp-switchboard) and install the unit from there`);
  }
  if (dryRun) {
    process.stdout.write(unit);
    return 0;
  }

  const existing = readIfExists(t.file);
  if (existing !== undefined && existing !== unit && values.force !== true) {
    throw new UsageError(`${t.file} already exists and differs from the unit this would write; pass --force to replace it (or --dry-run to see the new one)`);
  }
  if (existing !== unit) {
    fs.mkdirSync(path.dirname(t.file), { recursive: true });
    // Write then rename: systemd must never read half a unit.
    const tmp = `${t.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, unit, { mode: 0o644 });
    fs.renameSync(tmp, t.file);
  }
  // ReadWritePaths= fails the unit (226/NAMESPACE) for a directory that does not exist, and a
  // runner cannot create its cache under a read-only home; StateDirectory= covers system units.
  const dirs = [...(scope === 'user' ? [spec.stateDir] : []), ...(protectsHome(spec) ? spec.cacheDirs : [])];
  for (const dir of dirs) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });

  const verb = existing === undefined ? 'Wrote' : existing === unit ? 'Unchanged:' : 'Replaced';
  const lines = [
    `${verb} ${t.file} (${scope} unit, Type=${spec.notify ? 'notify' : 'simple'})`,
    `It runs: ${spec.nodePath} ${spec.entryPath} start -c ${spec.configPath}`,
    '',
    'Next:',
    `  ${t.systemctl} daemon-reload`,
    `  ${t.systemctl} enable --now ${t.name}`,
    ...(existing !== undefined && existing !== unit ? [`  ${t.systemctl} restart ${t.name}    # if it was already running`] : []),
    `  journalctl${scope === 'user' ? ' --user' : ''} -u ${t.name} -f`,
  ];
  if (scope === 'user') lines.push('To keep it running while you are logged out:', '  loginctl enable-linger $USER');
  const host = config.listen.host.includes(':') ? `[${config.listen.host}]` : config.listen.host;
  const scheme = config.listen.tls === undefined ? 'http' : 'https';
  lines.push(
    spec.notify
      ? `Ready: "${t.systemctl} status ${t.name}" says active (running) once every server had its first start; ${scheme}://${host}:${config.listen.port}/readyz says whether all are up.`
      : `Ready: ${scheme}://${host}:${config.listen.port}/readyz answers 200 once every server is up (Type=simple: systemd cannot tell).`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

function uninstall(values: ServiceFlags): number {
  const scope: UnitScope = values.user === true ? 'user' : 'system';
  const t = target(values, serviceHome(scope));
  requireRoot(t, 'removing');
  const existing = readIfExists(t.file);
  if (existing === undefined) throw new UsageError(`no unit ${t.name}.service at ${t.file}: nothing to uninstall`);
  if (!existing.startsWith(UNIT_MARKER) && values.force !== true) {
    throw new UsageError(`${t.file} was not written by "switchboard service install"; pass --force to remove it anyway`);
  }
  // Removing the file of an enabled unit leaves a dangling symlink `disable` can no longer clean up.
  const link = path.join(path.dirname(t.file), `${wantedBy(scope)}.wants`, `${t.name}.service`);
  const enabled = isSymlink(link);
  if (enabled && values.force !== true) {
    throw new UsageError(`${t.name} is still enabled: run "${t.systemctl} disable --now ${t.name}" first, then uninstall again`);
  }
  if (enabled) fs.rmSync(link);
  fs.rmSync(t.file);
  const lines = [
    `Removed ${t.file}${enabled ? ` and ${link}` : ''}`,
    '',
    'Next:',
    `  ${t.systemctl} stop ${t.name}    # if it is still running`,
    `  ${t.systemctl} daemon-reload`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/** This package's root: src/cli/ under tsx, dist/cli/ when built; both two levels down. */
function packageRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
}

/**
 * The daemon's PATH: node's directory first, so `#!/usr/bin/env node` servers (npx among them)
 * get the daemon's node; then every directory a server command was found in now, because the
 * service re-resolves them at start without the login shell's PATH; then systemd's default.
 */
function searchPath(config: SwitchboardConfig, notifyPath: string | undefined): string[] {
  const localBin = path.join(config.dir, 'node_modules', '.bin');
  const dirs = [path.dirname(process.execPath)];
  for (const server of config.servers) {
    if (server.remote !== undefined) continue;
    const dir = path.dirname(server.command);
    // The config directory's node_modules/.bin is searched before PATH anyway.
    if (!server.disabled && dir !== localBin) dirs.push(dir);
  }
  if (notifyPath !== undefined) dirs.push(path.dirname(notifyPath));
  return [...new Set([...dirs, ...SYSTEMD_DEFAULT_PATH])];
}

/** Where package runners keep what they download, relative to the home; ProtectSystem=strict would make it read-only. */
const RUNNER_CACHES: Readonly<Record<string, readonly string[]>> = {
  npx: ['.npm'],
  npm: ['.npm'],
  pnpm: ['.cache/pnpm', '.local/share/pnpm'],
  pnpx: ['.cache/pnpm', '.local/share/pnpm'],
  yarn: ['.cache/yarn'],
  bunx: ['.bun'],
  bun: ['.bun'],
  uvx: ['.cache/uv', '.local/share/uv'],
  uv: ['.cache/uv', '.local/share/uv'],
  pipx: ['.cache/pipx', '.local/share/pipx'],
};

function runnerCaches(config: SwitchboardConfig, home: string): string[] {
  const dirs = new Set<string>();
  for (const server of config.servers) {
    if (server.disabled) continue;
    for (const dir of RUNNER_CACHES[path.basename(server.commandAsWritten)] ?? []) dirs.add(path.join(home, dir));
  }
  return [...dirs];
}

function findOnPath(command: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here; keep looking.
    }
  }
  return undefined;
}

function namespaceSysctls(): Parameters<typeof userNamespacesAllowed>[1] {
  const read = (file: string) => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  };
  return {
    maxUserNamespaces: read('/proc/sys/user/max_user_namespaces'),
    unprivilegedUsernsClone: read('/proc/sys/kernel/unprivileged_userns_clone'),
    apparmorRestrictUserns: read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns'),
  };
}

/** Variables a service manager gives every service of that scope (systemd.exec, "Environment variables"). */
const MANAGER_ENV: Readonly<Record<UnitScope, readonly string[]>> = {
  system: ['PATH', 'LANG'],
  user: ['PATH', 'LANG', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'XDG_RUNTIME_DIR'],
};

/**
 * The config was validated with this shell's environment; the service gets a much smaller one. A
 * `${VAR}` or `tokenEnv` it will not have makes the daemon exit 2 at start, so say which, now.
 */
function warnAboutEnvironment(config: SwitchboardConfig, t: Target, spec: UnitSpec): void {
  const parsed = parseJson(fs.readFileSync(config.file, 'utf8'));
  if (!parsed.ok) return;
  const available = new Set([...MANAGER_ENV[spec.scope], 'XDG_STATE_HOME']);
  const missing = [...variablesRead(parsed.value)].filter((name) => !available.has(name));
  if (missing.length === 0) return;
  warn(
    `the config reads ${missing.join(', ')}, which the service's environment may not have: add them with "${t.systemctl} edit ${t.name}" ` +
      '([Service] Environment=NAME=value, or EnvironmentFile=FILE) before starting it',
  );
}

/** Names in `${NAME}` references without a default, and every auth token's tokenEnv. */
function variablesRead(value: unknown, found = new Set<string>(), key = ''): Set<string> {
  if (typeof value === 'string') {
    if (key === 'tokenEnv') found.add(value);
    for (const match of value.matchAll(/\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) if (match[1] !== undefined) found.add(match[1]);
  } else if (Array.isArray(value)) {
    for (const item of value) variablesRead(item, found);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) variablesRead(v, found, k);
  }
  return found;
}

/** The config's text for the credential check; an unreadable file is left to loadConfig to report. */
function readConfigText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read ${file}: ${(error as { code?: unknown }).code ?? 'unreadable'}`);
  }
}

function isSymlink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

function warn(message: string): void {
  process.stderr.write(`switchboard: warning: ${message}\n`);
}
