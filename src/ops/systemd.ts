// The systemd unit that runs `switchboard start` as a service: its text, where it lives, and how values are escaped for it.
import path from 'node:path';
import { DEFAULT_SHUTDOWN } from '../upstream/child.js';
import { READY_WAIT_MS } from './sd-notify.js';

export type UnitScope = 'user' | 'system';

export interface UnitSpec {
  /** Unit name without `.service`. */
  readonly name: string;
  readonly scope: UnitScope;
  /** Absolute path of the node binary (process.execPath): a unit runs without the login shell's PATH. */
  readonly nodePath: string;
  /** Absolute path of this package's dist/cli/main.js. */
  readonly entryPath: string;
  /** Absolute path of the config file. */
  readonly configPath: string;
  /**
   * Absolute directory the daemon keeps state in ($XDG_STATE_HOME/mcp-switchboard). A system unit
   * gets it from StateDirectory=, so it must be /var/lib/mcp-switchboard there.
   */
  readonly stateDir: string;
  /** Type=notify (systemd-notify was found at install time) or Type=simple. */
  readonly notify: boolean;
  /** The config's limits.shutdownGraceMs. */
  readonly shutdownGraceMs: number;
  /** The config's listen.host, to decide whether the network must be up first. */
  readonly listenHost: string;
  /** Absolute PATH for the daemon: it resolves server commands (and `#!/usr/bin/env node`) through it. */
  readonly searchPath: readonly string[];
  /**
   * Caches of package runners (npx, uvx) the config starts servers with, under the service's home;
   * made writable where the unit makes homes read-only.
   */
  readonly cacheDirs: readonly string[];
  /**
   * Whether mount namespaces are available to the unit. Always true for system units; a user unit
   * gets them only through an unprivileged user namespace, which some kernels refuse.
   */
  readonly namespaces: boolean;
  /** `--credential NAME=PATH`: files systemd hands the daemon as credentials, read by `${credential:NAME}`. */
  readonly credentials?: readonly { readonly name: string; readonly path: string }[];
}

/** First comment line of every unit we write; uninstall refuses to delete a file without it. */
export const UNIT_MARKER = '# Written by `switchboard service install`';

export const DEFAULT_UNIT_NAME = 'mcp-switchboard';
/** V8's young-generation cap for the service, MiB per semi-space (see the unit's comment). */
export const SEMI_SPACE_FLAG = '--max-semi-space-size=8';
export const SYSTEM_STATE_DIR = '/var/lib/mcp-switchboard';
export const SYSTEM_UNIT_DIR = '/etc/systemd/system';
/** What PID 1 gives services when a unit sets no PATH (systemd.exec, "Environment variables"). */
export const SYSTEMD_DEFAULT_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** Margin on top of the daemon's own shutdown budget before systemd sends SIGKILL, seconds. */
const STOP_MARGIN_S = 5;
/** Margin on top of the readiness wait before systemd gives up on a Type=notify start, seconds. */
const START_MARGIN_S = 30;

/** Directories under which ProtectHome= applies (systemd.exec). */
const HOME_TREES = ['/home', '/root', '/run/user'];

/** Directories PrivateTmp= replaces with empty private ones. */
const TMP_TREES = ['/tmp', '/var/tmp'];

function isUnder(trees: readonly string[], file: string): boolean {
  return trees.some((tree) => file === tree || file.startsWith(`${tree}/`));
}

function isUnderHome(file: string): boolean {
  return isUnder(HOME_TREES, file);
}

/** A unit name as given to --name: letters, digits and `:_.-`; a trailing `.service` is dropped. */
export function unitName(raw: string): string | undefined {
  const name = raw.endsWith('.service') ? raw.slice(0, -'.service'.length) : raw;
  return /^[A-Za-z0-9][A-Za-z0-9:_.-]{0,200}$/.test(name) ? name : undefined;
}

/** Where a unit of `scope` lives: the first directory of each manager's search path meant for the admin. */
export function unitDir(scope: UnitScope, env: NodeJS.ProcessEnv, home: string): string {
  if (scope === 'system') return SYSTEM_UNIT_DIR;
  // The XDG base directory spec says a relative value is invalid and must be ignored; systemd does so too.
  const configHome = env['XDG_CONFIG_HOME'];
  const base = configHome !== undefined && path.isAbsolute(configHome) ? configHome : path.join(home, '.config');
  return path.join(base, 'systemd', 'user');
}

/** The target `enable` hooks the unit into: user managers have no multi-user.target. */
export function wantedBy(scope: UnitScope): string {
  return scope === 'user' ? 'default.target' : 'multi-user.target';
}

/**
 * Seconds systemd waits after SIGTERM before SIGKILL: the daemon lets in-flight requests run for
 * shutdownGraceMs, then stops its servers in parallel (stdin closed, SIGTERM, SIGKILL: upstream/child.ts).
 */
export function timeoutStopSec(shutdownGraceMs: number): number {
  const serversMs = DEFAULT_SHUTDOWN.afterStdinCloseMs + DEFAULT_SHUTDOWN.afterTermMs;
  return Math.ceil((shutdownGraceMs + serversMs) / 1000) + STOP_MARGIN_S;
}

/** Seconds systemd waits for READY=1: the daemon's own readiness wait plus time to load and listen. */
export function timeoutStartSec(): number {
  return Math.ceil(READY_WAIT_MS / 1000) + START_MARGIN_S;
}

/**
 * Whether an unprivileged user may create the user namespace a user unit's ProtectSystem=,
 * PrivateTmp= and friends need (systemd.exec: "PrivateUsers= is implicitly enabled" for them).
 * The values are the sysctls' contents, undefined where the sysctl does not exist.
 */
export function userNamespacesAllowed(uid: number, sysctl: {
  readonly maxUserNamespaces?: string | undefined;
  /** Debian's and older Ubuntu's kernel.unprivileged_userns_clone. */
  readonly unprivilegedUsernsClone?: string | undefined;
  /** Ubuntu 23.10+: AppArmor confines unprivileged user namespaces, and systemd --user cannot set them up. */
  readonly apparmorRestrictUserns?: string | undefined;
}): boolean {
  if (uid === 0) return true;
  if (sysctl.maxUserNamespaces?.trim() === '0') return false;
  if (sysctl.unprivilegedUsernsClone?.trim() === '0') return false;
  return sysctl.apparmorRestrictUserns?.trim() !== '1';
}

/** Escapes unit specifiers (`%n`): they expand in every setting we write. */
function specifiers(value: string): string {
  return value.replaceAll('%', '%%');
}

/**
 * One word of ExecStart=: quoted when it holds anything but plain path characters, `%` and `$`
 * doubled so neither a specifier nor an environment variable is expanded (systemd.service, "Command lines").
 */
export function execWord(value: string): string {
  // A function replacer: in a replacement string `$$` would itself mean one `$`.
  const escaped = specifiers(value).replaceAll('$', () => '$$');
  return /^[A-Za-z0-9_@%$+=:,./-]+$/.test(escaped) ? escaped : `"${escaped.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** One entry of a space-separated path list (ReadWritePaths=): quoted like a word, no `$` expansion there. */
function pathWord(value: string): string {
  const escaped = specifiers(value);
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(escaped) ? escaped : `"${escaped.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** An Environment= assignment, quoted as a whole so values with spaces survive. */
function environment(name: string, value: string): string {
  return `Environment=${pathWord(`${name}=${value}`)}`;
}

/** Whether the unit makes homes read-only: system units whose config does not live in one. */
export function protectsHome(spec: UnitSpec): boolean {
  return spec.scope === 'system' && spec.namespaces && !isUnderHome(spec.configPath);
}

/** The unit file's text. Comments say why each setting is there: whoever reads it is deciding whether to trust it. */
export function renderUnit(spec: UnitSpec): string {
  const user = spec.scope === 'user';
  const configDir = path.posix.dirname(spec.configPath);
  const systemctl = user ? 'systemctl --user' : 'systemctl';
  const out: string[] = [];
  const line = (...lines: string[]) => out.push(...lines);

  line(
    UNIT_MARKER,
    `# Serves the MCP servers of ${spec.configPath} as one MCP server over HTTP.`,
    `# Change settings in a drop-in (${systemctl} edit ${spec.name}): it survives a re-install; this file does not.`,
    '',
    '[Unit]',
    'Description=mcp-switchboard: many stdio MCP servers as one MCP server over HTTP',
  );
  if (!user) {
    const wildcard = ['0.0.0.0', '::', ''].includes(spec.listenHost);
    if (wildcard || spec.listenHost === 'localhost' || /^(127\.|::1$)/.test(spec.listenHost)) {
      line('After=network.target');
    } else {
      line('# It binds a specific address, which must be configured before it can listen.', 'Wants=network-online.target', 'After=network-online.target');
    }
  }
  line(
    '# A daemon that fails 5 times within a minute is broken, not unlucky: stop restarting it.',
    'StartLimitIntervalSec=60',
    'StartLimitBurst=5',
    '',
    '[Service]',
  );
  if (spec.notify) {
    line(
      '# READY=1 comes once it listens and every server has had its first start attempt (at most',
      `# ${READY_WAIT_MS / 1000} s): a server that failed keeps retrying in the background, GET /readyz tells whether all are up.`,
      'Type=notify',
      '# The daemon notifies through systemd-notify, a child process, so messages from the whole unit count.',
      'NotifyAccess=all',
      `TimeoutStartSec=${timeoutStartSec()}`,
    );
  } else {
    line(
      '# systemd-notify was not found at install time, so systemd only knows the process started:',
      '# GET /readyz is the readiness probe (200 when every server is up).',
      'Type=simple',
    );
  }
  line(
    '# Absolute node and entry point: the unit must not depend on a login shell\'s PATH.',
    '# A smaller young generation than V8\'s 16 MiB default keeps a busy daemon\'s memory lower:',
    '# measured ~35 MB less RSS under 64 KiB calls (at ~20 % more CPU for them), ~12 MB less at small ones.',
    `ExecStart=${[spec.nodePath, SEMI_SPACE_FLAG, spec.entryPath, 'start', '-c', spec.configPath].map(execWord).join(' ')}`,
    '# SIGHUP reloads the config without dropping clients.',
    'ExecReload=/bin/kill -HUP $MAINPID',
    '# Paths in the config resolve against its directory; servers that use their cwd see the same files.',
    `WorkingDirectory=${specifiers(configDir)}`,
    '# Server commands resolve through PATH when the daemon starts: node\'s directory first (for',
    '# `#!/usr/bin/env node` scripts), then where install found the commands, then systemd\'s default.',
    environment('PATH', spec.searchPath.join(':')),
    '# Logs are JSON lines on stdout, kept by the journal under this name.',
    `SyslogIdentifier=${spec.name}`,
    '# A crashed daemon comes back after 2 s (it restarts crashed servers itself, with backoff).',
    'Restart=on-failure',
    'RestartSec=2s',
    '# Exit code 2 is a bad config or flag: a restart cannot fix it.',
    'RestartPreventExitStatus=2',
    '# SIGTERM reaches the daemon alone: it lets in-flight requests finish, then stops its servers',
    '# itself; control-group would SIGTERM the servers mid-request. Leftovers get SIGKILL after it exits.',
    'KillMode=mixed',
    `# limits.shutdownGraceMs (${spec.shutdownGraceMs / 1000} s) + stopping servers (${(DEFAULT_SHUTDOWN.afterStdinCloseMs + DEFAULT_SHUTDOWN.afterTermMs) / 1000} s) + ${STOP_MARGIN_S} s; re-install after raising the grace.`,
    `TimeoutStopSec=${timeoutStopSec(spec.shutdownGraceMs)}`,
    '',
  );
  const stateHome = path.posix.dirname(spec.stateDir);
  if (user) {
    line(`# Tool pins and other state go to $XDG_STATE_HOME/mcp-switchboard: ${spec.stateDir}, made writable below.`);
  } else {
    line(
      `# Tool pins and other state go to $XDG_STATE_HOME/mcp-switchboard: ${spec.stateDir}, created by systemd`,
      '# and owned by the service\'s user, writable despite ProtectSystem=.',
      `StateDirectory=${path.posix.basename(spec.stateDir)}`,
    );
  }
  line(environment('XDG_STATE_HOME', stateHome), '');
  if (spec.credentials !== undefined && spec.credentials.length > 0) {
    line(
      '# Secrets the config reads as ${credential:NAME}: systemd copies each file into $CREDENTIALS_DIRECTORY,',
      '# readable by the service alone, so they need not be in the config or its environment.',
      ...spec.credentials.map((c) => `LoadCredential=${specifiers(c.name)}:${specifiers(c.path)}`),
      '',
    );
  }

  line(
    '# Hardening. Every server the daemon starts runs under it too: a server that must write',
    `# elsewhere needs ReadWritePaths=DIR in a drop-in. Runs as ${user ? 'you' : 'root unless a drop-in sets User='}.`,
    '# No privilege gain through setuid binaries or file capabilities, for the daemon or any server.',
    'NoNewPrivileges=yes',
    '# No creating setuid/setgid files either.',
    'RestrictSUIDSGID=yes',
    '# One execution domain, no realtime scheduling, native system calls only: no server needs',
    '# them, exploits do (personality tricks, a realtime loop that starves the host, 32-bit syscalls).',
    'LockPersonality=yes',
    'RestrictRealtime=yes',
    'SystemCallArchitectures=native',
  );
  if (spec.namespaces) {
    const writable = [configDir, ...(user ? [spec.stateDir] : [])].map(pathWord);
    const inTmp = [spec.configPath, spec.entryPath, spec.nodePath, spec.stateDir].find((file) => isUnder(TMP_TREES, file));
    if (inTmp === undefined) {
      line('# Private /tmp and /var/tmp: servers\' temporary files are neither shared nor left behind.', 'PrivateTmp=yes');
    } else {
      line(`# PrivateTmp= left out: ${inTmp} is under a temporary directory a private one would hide (226/NAMESPACE).`);
    }
    line(
      '# /usr, /etc, /var, /opt and the rest read-only, but for the directories below. (Homes are left',
      '# to ProtectHome=, /dev, /proc and /sys to the Protect*= lines further down.)',
      'ProtectSystem=strict',
      `# The config directory: relative paths in the config (logs, files servers write) land there.${user ? ' And the state directory.' : ''}`,
      `ReadWritePaths=${writable.join(' ')}`,
    );
    if (protectsHome(spec)) {
      line(
        '# Homes (/home, /root, /run/user) read-only too: servers may read users\' files, not change them.',
        '# Left out when the config lives in a home: such a setup keeps its files, and its servers\' work, there.',
        'ProtectHome=read-only',
      );
      if (spec.cacheDirs.length > 0) {
        line(
          '# Caches of the package runners the config starts servers with (npx, uvx, ...), in the read-only home.',
          `ReadWritePaths=${spec.cacheDirs.map((dir) => `-${pathWord(dir)}`).join(' ')}`,
        );
      }
    } else if (user) {
      line('# No ProtectHome=: a user unit works for you, and its servers on your files.');
    }
    line(
      '# Nothing here tunes the kernel, loads modules, reads the kernel log or edits cgroups.',
      'ProtectKernelTunables=yes',
      'ProtectKernelModules=yes',
      'ProtectKernelLogs=yes',
      'ProtectControlGroups=yes',
      'ProtectHostname=yes',
    );
  } else {
    line(
      '# ProtectSystem=, PrivateTmp=, ProtectKernel*= left out: in a user unit they need an unprivileged',
      '# user namespace, which this kernel refuses; the unit would fail with 226/NAMESPACE.',
    );
  }
  line(
    '# Left out on purpose: MemoryDenyWriteExecute= (V8\'s JIT needs writable code), RestrictNamespaces=',
    '# (browser-based servers sandbox themselves with namespaces), PrivateDevices=, PrivateNetwork= and',
    '# SystemCallFilter= (servers are arbitrary programs that may use devices, the network, any syscall).',
    '',
    '[Install]',
    `WantedBy=${wantedBy(spec.scope)}`,
  );
  return `${out.join('\n')}\n`;
}
