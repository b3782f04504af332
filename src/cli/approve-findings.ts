// `switchboard approve` for an entity the sanitizer withholds for its own text: shows the findings,
// accepts them for that definition only, lists and revokes acceptances, and records each in the log.
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import type { ServerConfig, SwitchboardConfig } from '../config/types.js';
import {
  AuditLog,
  RECORD_VERSION,
  RULESET,
  UNACCEPTABLE_RULES,
  escapeText,
  sha256,
  type Acceptance,
  type AuditRecord,
  type EntityKind,
  type PinStore,
  type RuleId,
} from '../sanitize/index.js';
import { logFiles } from './audit-summary.js';
import { table, terminalWidth } from './render.js';

/** What approve needs to know of the server it works on. */
export interface ApproveTarget {
  readonly config: SwitchboardConfig;
  readonly server: ServerConfig;
  /** The pin identity (review-policy.ts pinIdentity). */
  readonly id: string;
  readonly pins: PinStore;
}

/** The operator as this shell knows them: the sudo caller first, else the user running it. */
export function operatorName(env: NodeJS.ProcessEnv = process.env): string {
  const sudo = env['SUDO_USER'];
  if (sudo !== undefined && sudo !== '') return sudo;
  try {
    return os.userInfo().username;
  } catch {
    return env['USER'] ?? 'unknown';
  }
}

const KIND_PREFIXES: ReadonlyArray<[string, EntityKind]> = [
  ['prompt:', 'prompt'],
  ['resourceTemplate:', 'resourceTemplate'],
  ['resource:', 'resource'],
  ['instructions:', 'instructions'],
];

/** The kind and name a pin key stands for (review-policy.ts pinKey, read back). */
export function entityOfKey(key: string): { entity: EntityKind; name: string } {
  for (const [prefix, entity] of KIND_PREFIXES) if (key.startsWith(prefix)) return { entity, name: key.slice(prefix.length) };
  return { entity: 'tool', name: key };
}

/** The pin key a name given on the command line means: as written, or as a prompt, resource or template. */
export function keyFor(name: string, known: (key: string) => boolean): string {
  const candidates = [name, `prompt:${name}`, `resource:${name}`, `resourceTemplate:${name}`];
  return candidates.find(known) ?? name;
}

/** Lines describing the blocking findings of one definition, read back from the sanitization log. */
export async function findingLines(config: SwitchboardConfig, id: string, key: string, definitionSha: string): Promise<string[]> {
  const { entity, name } = entityOfKey(key);
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const file of await logFiles(config.sanitize.log, config.sanitize.logKeep)) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (!line.includes(definitionSha)) continue;
      let record: Partial<AuditRecord>;
      try {
        record = JSON.parse(line) as Partial<AuditRecord>;
      } catch {
        continue;
      }
      if (record.server_id !== id || record.entity !== entity || record.tool !== escapeText(name) || record.tool_sha256 !== definitionSha || record.action !== 'block') continue;
      if (record.rule === 'rug-pull' || seen.has(String(record.key))) continue;
      seen.add(String(record.key));
      // Already escaped when logged: server text cannot drive the terminal.
      lines.push(`${record.field || '/'}: ${String(record.rule)}: ${String(record.reason)}`, `  ${String(record.before)}`);
    }
  }
  return lines;
}

/** Rules an acceptance cannot lift, among these. */
export function unacceptable(rules: readonly string[]): string[] {
  return rules.filter((rule) => UNACCEPTABLE_RULES.has(rule));
}

/** Records an acceptance or a revocation in the sanitization log, the audit trail of every finding. */
export async function logDecision(
  target: ApproveTarget,
  key: string,
  rule: Extract<RuleId, 'operator-accept' | 'operator-revoke'>,
  acceptance: Acceptance,
): Promise<void> {
  const { config, server, id } = target;
  const { entity, name } = entityOfKey(key);
  const time = new Date().toISOString();
  const verb = rule === 'operator-accept' ? 'accepted' : 'revoked the acceptance of';
  const record: AuditRecord = {
    v: RECORD_VERSION,
    ruleset: RULESET,
    time,
    server: escapeText(server.name),
    server_id: id,
    entity,
    tool: escapeText(name),
    exposed_as: null,
    field: '',
    rule,
    severity: 'info',
    action: 'flag',
    before_sha256: acceptance.sha256,
    after_sha256: rule === 'operator-accept' ? acceptance.sha256 : null,
    before: acceptance.rules.join(', '),
    after: null,
    removed: null,
    decoded: null,
    match: null,
    tool_sha256: acceptance.sha256,
    pinned_sha256: acceptance.sha256,
    diff: null,
    listing: 0,
    reason: escapeText(`${rule === 'operator-accept' ? acceptance.by : operatorName()} ${verb} findings ${acceptance.rules.join(', ')} for definition ${acceptance.sha256} only`),
    key: `sha256:${sha256(JSON.stringify([id, entity, name, rule, acceptance.sha256, time]))}`,
  };
  const log = await AuditLog.open({ path: config.sanitize.log, maxBytes: config.sanitize.logMaxBytes, keep: config.sanitize.logKeep, instance: config.instance });
  try {
    const result = await log.append([record]);
    if (!result.ok) throw new Error(`could not write ${config.sanitize.log}: ${result.error.message}`);
  } finally {
    await log.close();
  }
}

/** `approve --list [SERVER]`: every acceptance, and whether the definition it names is still the pinned one. */
export function listAcceptances(pins: PinStore, serverName: string | undefined, ids: ReadonlyMap<string, string>): string[] {
  const rows = pins
    .acceptances()
    .map((a) => ({ ...a, server: [...ids].find(([, id]) => id === a.serverId)?.[0] ?? a.server ?? a.serverId.slice(0, 19) }))
    .filter((a) => serverName === undefined || a.server === serverName);
  if (rows.length === 0) return [serverName === undefined ? 'no accepted findings' : `no accepted findings for server ${serverName}`];
  const state = (a: (typeof rows)[number]): string => {
    const current = pins.withheld(a.serverId).find((w) => w.key === a.key);
    return current?.sha256 === a.sha256 ? 'in force' : 'stale';
  };
  const lines = table(
    [{ header: 'SERVER', max: 24 }, { header: 'NAME', max: 40 }, { header: 'STATE' }, { header: 'RULES' }, { header: 'BY' }, { header: 'ACCEPTED', fill: true }],
    rows.map((a) => [a.server, escapeText(a.key), state(a), a.rules.join(', '), a.by, `${a.acceptedAt.slice(0, 19)}Z ${a.sha256.slice(0, 19)}…`]),
    terminalWidth(),
  );
  if (rows.some((a) => state(a) === 'stale')) lines.push('stale: the pinned definition is no longer the accepted one (or is served without findings); a changed definition is judged again');
  return lines;
}
