// The systemd unit renderer: every directive, absolute paths, user vs system, notify vs simple, escaping.
import { describe, expect, it } from 'vitest';
import {
  SYSTEM_STATE_DIR,
  UNIT_MARKER,
  execWord,
  renderUnit,
  timeoutStopSec,
  unitDir,
  unitName,
  userNamespacesAllowed,
  type UnitSpec,
} from '../../../src/ops/systemd.js';
import { parseUnit } from './systemd-ini.js';

const SYSTEM: UnitSpec = {
  name: 'mcp-switchboard',
  scope: 'system',
  nodePath: '/usr/local/bin/node',
  entryPath: '/usr/lib/node_modules/mcp-switchboard/dist/cli/main.js',
  configPath: '/etc/mcp-switchboard/proxy.config.json',
  stateDir: SYSTEM_STATE_DIR,
  notify: true,
  shutdownGraceMs: 10_000,
  listenHost: '127.0.0.1',
  searchPath: ['/usr/local/bin', '/usr/bin', '/bin'],
  cacheDirs: [],
  namespaces: true,
};

const USER: UnitSpec = {
  ...SYSTEM,
  scope: 'user',
  nodePath: '/home/ada/.nvm/versions/node/v20.19.0/bin/node',
  entryPath: '/home/ada/src/mcp-switchboard/dist/cli/main.js',
  configPath: '/home/ada/switchboard/proxy.config.json',
  stateDir: '/home/ada/.local/state/mcp-switchboard',
  cacheDirs: ['/home/ada/.npm'],
};

function service(spec: UnitSpec): Map<string, string[]> {
  return parseUnit(renderUnit(spec)).get('Service')!;
}

function one(section: Map<string, string[]>, key: string): string | undefined {
  const values = section.get(key);
  return values === undefined ? undefined : values[values.length - 1];
}

describe('systemd unit', () => {
  it('a system unit has every directive: notify readiness, absolute ExecStart, restart policy, stop budget, state and hardening', () => {
    const text = renderUnit(SYSTEM);
    expect(text.startsWith(`${UNIT_MARKER}\n`)).toBe(true);
    const unit = parseUnit(text);
    expect([...unit.keys()]).toEqual(['Unit', 'Service', 'Install']);
    const s = unit.get('Service')!;
    expect(one(s, 'Type')).toBe('notify');
    expect(one(s, 'NotifyAccess')).toBe('all');
    expect(Number(one(s, 'TimeoutStartSec'))).toBeGreaterThan(60);
    expect(one(s, 'ExecStart')).toBe(
      '/usr/local/bin/node --max-semi-space-size=8 /usr/lib/node_modules/mcp-switchboard/dist/cli/main.js start -c /etc/mcp-switchboard/proxy.config.json',
    );
    for (const word of one(s, 'ExecStart')!.split(' ').filter((w) => w.includes('/'))) expect(word.startsWith('/')).toBe(true);
    expect(one(s, 'ExecReload')).toBe('/bin/kill -HUP $MAINPID');
    expect(one(s, 'WorkingDirectory')).toBe('/etc/mcp-switchboard');
    expect(s.get('Environment')).toEqual(['PATH=/usr/local/bin:/usr/bin:/bin', 'XDG_STATE_HOME=/var/lib']);
    expect(one(s, 'Restart')).toBe('on-failure');
    expect(one(s, 'RestartSec')).toBe('2s');
    expect(one(s, 'RestartPreventExitStatus')).toBe('2');
    expect(one(s, 'KillMode')).toBe('mixed');
    expect(Number(one(s, 'TimeoutStopSec'))).toBeGreaterThan(10 + 4);
    expect(one(s, 'SyslogIdentifier')).toBe('mcp-switchboard');
    expect(one(s, 'StateDirectory')).toBe('mcp-switchboard');
    expect(s.get('ReadWritePaths')).toEqual(['/etc/mcp-switchboard']);
    const hardening: Record<string, string> = {
      NoNewPrivileges: 'yes',
      PrivateTmp: 'yes',
      ProtectSystem: 'strict',
      ProtectHome: 'read-only',
      ProtectKernelTunables: 'yes',
      ProtectKernelModules: 'yes',
      ProtectKernelLogs: 'yes',
      ProtectControlGroups: 'yes',
      ProtectHostname: 'yes',
      RestrictSUIDSGID: 'yes',
      RestrictRealtime: 'yes',
      LockPersonality: 'yes',
      SystemCallArchitectures: 'native',
    };
    for (const [key, value] of Object.entries(hardening)) expect([key, one(s, key)]).toEqual([key, value]);
    // Would break the daemon (V8's JIT) or the servers it runs.
    for (const key of ['MemoryDenyWriteExecute', 'RestrictNamespaces', 'PrivateNetwork', 'SystemCallFilter', 'DynamicUser']) expect(s.has(key)).toBe(false);
    expect(one(unit.get('Unit')!, 'After')).toBe('network.target');
    expect(one(unit.get('Unit')!, 'StartLimitBurst')).toBe('5');
    expect(one(unit.get('Install')!, 'WantedBy')).toBe('multi-user.target');
  });

  it('a user unit has no StateDirectory or ProtectHome, makes the state dir writable, and is wanted by default.target', () => {
    const unit = parseUnit(renderUnit(USER));
    const s = unit.get('Service')!;
    expect(one(s, 'ExecStart')).toBe(`${USER.nodePath} --max-semi-space-size=8 ${USER.entryPath} start -c ${USER.configPath}`);
    expect(s.has('StateDirectory')).toBe(false);
    expect(s.has('ProtectHome')).toBe(false);
    // Runner caches need no entry: the home stays writable in a user unit.
    expect(s.get('ReadWritePaths')).toEqual(['/home/ada/switchboard /home/ada/.local/state/mcp-switchboard']);
    expect(s.get('Environment')).toContain('XDG_STATE_HOME=/home/ada/.local/state');
    expect(one(s, 'ProtectSystem')).toBe('strict');
    expect(one(s, 'KillMode')).toBe('mixed');
    expect(unit.get('Unit')!.has('After')).toBe(false);
    expect(one(unit.get('Install')!, 'WantedBy')).toBe('default.target');
  });

  it('a system unit with read-only homes keeps the package runners\' caches there writable', () => {
    const s = service({ ...SYSTEM, cacheDirs: ['/root/.npm', '/root/.cache/uv'] });
    expect(one(s, 'ProtectHome')).toBe('read-only');
    expect(s.get('ReadWritePaths')).toEqual(['/etc/mcp-switchboard', '-/root/.npm -/root/.cache/uv']);
  });

  it('PrivateTmp is left out when the config, package or node lives under /tmp or /var/tmp: a private /tmp would hide it', () => {
    for (const spec of [{ ...SYSTEM, configPath: '/tmp/try/proxy.config.json' }, { ...USER, entryPath: '/var/tmp/sb/dist/cli/main.js' }]) {
      const text = renderUnit(spec);
      expect(parseUnit(text).get('Service')!.has('PrivateTmp')).toBe(false);
      expect(text).toMatch(/^# PrivateTmp= left out: \/(var\/)?tmp\//m);
      expect(one(parseUnit(text).get('Service')!, 'ProtectSystem')).toBe('strict');
    }
  });

  it('a user unit on a kernel without unprivileged user namespaces keeps the seccomp hardening and drops the mount sandbox', () => {
    const text = renderUnit({ ...USER, namespaces: false });
    const s = parseUnit(text).get('Service')!;
    for (const key of ['PrivateTmp', 'ProtectSystem', 'ReadWritePaths', 'ProtectKernelTunables', 'ProtectControlGroups', 'ProtectHostname']) {
      expect([key, s.has(key)]).toEqual([key, false]);
    }
    for (const key of ['NoNewPrivileges', 'RestrictSUIDSGID', 'LockPersonality']) expect(one(s, key)).toBe('yes');
    expect(text).toContain('226/NAMESPACE');
  });

  it('Type=simple without systemd-notify, and the unit says /readyz is the readiness probe', () => {
    const text = renderUnit({ ...SYSTEM, notify: false });
    const s = parseUnit(text).get('Service')!;
    expect(one(s, 'Type')).toBe('simple');
    expect(s.has('NotifyAccess')).toBe(false);
    expect(s.has('TimeoutStartSec')).toBe(false);
    expect(text).toMatch(/^# .*\/readyz is the readiness probe/m);
  });

  it('a system unit whose config lives in a home leaves ProtectHome out; a specific listen address waits for network-online', () => {
    const unit = parseUnit(renderUnit({ ...SYSTEM, configPath: '/home/ada/sb/proxy.config.json', listenHost: '192.168.1.10' }));
    expect(unit.get('Service')!.has('ProtectHome')).toBe(false);
    expect(unit.get('Service')!.get('ReadWritePaths')).toEqual(['/home/ada/sb']);
    expect(one(unit.get('Unit')!, 'Wants')).toBe('network-online.target');
    expect(one(unit.get('Unit')!, 'After')).toBe('network-online.target');
    expect(one(parseUnit(renderUnit({ ...SYSTEM, listenHost: '0.0.0.0' })).get('Unit')!, 'After')).toBe('network.target');
  });

  it('TimeoutStopSec outlasts the shutdown grace plus the time to stop servers', () => {
    expect(timeoutStopSec(10_000)).toBeGreaterThanOrEqual(15);
    expect(timeoutStopSec(60_000)).toBeGreaterThan(64);
    expect(one(service({ ...SYSTEM, shutdownGraceMs: 30_000 }), 'TimeoutStopSec')).toBe(String(timeoutStopSec(30_000)));
  });

  it('escapes specifiers, variables, spaces, quotes and backslashes in ExecStart and path lists', () => {
    expect(execWord('/plain/path.json')).toBe('/plain/path.json');
    expect(execWord('/a b/c.json')).toBe('"/a b/c.json"');
    expect(execWord('/50%/$HOME')).toBe('/50%%/$$HOME');
    expect(execWord('/q"b\\s')).toBe('"/q\\"b\\\\s"');
    const s = service({ ...SYSTEM, configPath: '/srv/my configs/100%/proxy.config.json' });
    expect(one(s, 'ExecStart')).toContain('-c "/srv/my configs/100%%/proxy.config.json"');
    expect(one(s, 'WorkingDirectory')).toBe('/srv/my configs/100%%');
    expect(s.get('ReadWritePaths')).toEqual(['"/srv/my configs/100%%"']);
  });

  it('unit names: letters, digits and :_.-, a trailing .service dropped, anything else refused', () => {
    expect(unitName('mcp-switchboard')).toBe('mcp-switchboard');
    expect(unitName('team.switchboard.service')).toBe('team.switchboard');
    for (const bad of ['', 'a/b', '../x', 'a b', '-x', 'x@y']) expect([bad, unitName(bad)]).toEqual([bad, undefined]);
  });

  it('unit directories: /etc/systemd/system, else $XDG_CONFIG_HOME/systemd/user (absolute only), else ~/.config/systemd/user', () => {
    expect(unitDir('system', {}, '/root')).toBe('/etc/systemd/system');
    expect(unitDir('user', { XDG_CONFIG_HOME: '/x/cfg' }, '/home/ada')).toBe('/x/cfg/systemd/user');
    expect(unitDir('user', { XDG_CONFIG_HOME: 'relative' }, '/home/ada')).toBe('/home/ada/.config/systemd/user');
    expect(unitDir('user', {}, '/home/ada')).toBe('/home/ada/.config/systemd/user');
  });

  it('user namespaces: refused by any of the three sysctls, always available to root', () => {
    expect(userNamespacesAllowed(1000, {})).toBe(true);
    expect(userNamespacesAllowed(1000, { maxUserNamespaces: '63000\n', unprivilegedUsernsClone: '1\n', apparmorRestrictUserns: '0\n' })).toBe(true);
    expect(userNamespacesAllowed(1000, { maxUserNamespaces: '0\n' })).toBe(false);
    expect(userNamespacesAllowed(1000, { unprivilegedUsernsClone: '0\n' })).toBe(false);
    expect(userNamespacesAllowed(1000, { apparmorRestrictUserns: '1\n' })).toBe(false);
    expect(userNamespacesAllowed(0, { apparmorRestrictUserns: '1\n' })).toBe(true);
  });
});
