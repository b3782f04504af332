// `profiles` and `defaultProfile` → frozen ProfileConfig values, with typo-catching warnings.

import { describeValue, type Findings, type PathSegment } from './errors.js';
import { substitute } from './interpolate.js';
import { KNOWN_KEYS, PROFILE_NAME_PATTERN, type RawProfile } from './schema.js';
import type { NameRule, ProfileConfig } from './types.js';
import { isPlainObject, refuseUnknownKeys } from './validate.js';

export interface ProfileContext {
  /** The config file's folder, for a relative `${file:PATH}`. */
  readonly dir?: string;
  readonly env: NodeJS.ProcessEnv;
  readonly findings: Findings;
  /** Keys under `mcpServers`, to warn about a server rule naming no server. */
  readonly serverNames: ReadonlySet<string>;
}

/** Characters an emitted tool or prompt name may hold (PROTOCOL.md §7), plus the two wildcards. */
const NAME_GLOB = /^[A-Za-z0-9_\-*?]*$/;
const WILDCARD = /[*?]/;

type RuleKind = 'tools' | 'prompts' | 'servers' | 'resources';
const RULE_KINDS: readonly RuleKind[] = ['tools', 'prompts', 'servers', 'resources'];

/**
 * `raw` is the section as written (its keys are iterated, since a zod record copy may drop keys
 * like `__proto__`); `parsed` is the same section after the schema accepted it.
 */
export function resolveProfiles(
  raw: unknown,
  parsed: Readonly<Record<string, RawProfile>>,
  ctx: ProfileContext,
): Record<string, ProfileConfig> {
  // No prototype: looking up `constructor` or `__proto__` must find no profile.
  const out = Object.create(null) as Record<string, ProfileConfig>;
  if (!isPlainObject(raw)) return out;
  for (const [name, value] of Object.entries(raw)) {
    const at: PathSegment[] = ['profiles', name];
    if (!PROFILE_NAME_PATTERN.test(name)) {
      ctx.findings.error(at, 'profile names are 1 to 64 characters of [A-Za-z0-9_.-] starting with a letter or digit (they appear in ?profile=)');
      continue;
    }
    const profile = Object.hasOwn(parsed, name) ? parsed[name] : undefined;
    if (profile === undefined || !isPlainObject(value)) continue;
    refuseUnknownKeys(value, KNOWN_KEYS.profile, at, ctx.findings);
    out[name] = {
      name,
      tools: resolveRule(value, profile, 'tools', at, ctx),
      prompts: resolveRule(value, profile, 'prompts', at, ctx),
      servers: resolveRule(value, profile, 'servers', at, ctx),
      resources: resolveRule(value, profile, 'resources', at, ctx),
      maxTools: profile.maxTools,
      maxTokens: profile.maxTokens,
      discovery: profile.discovery,
      pinned: toolGlobs(profile.pinned, [...at, 'pinned'], ctx),
      priority: toolGlobs(profile.priority, [...at, 'priority'], ctx),
    };
  }
  return out;
}

/** A list of globs over namespaced tool names (`pinned`, `priority`), variables substituted and checked. */
function toolGlobs(list: readonly string[], at: readonly PathSegment[], ctx: ProfileContext): string[] {
  return list.map((glob, i) => {
    const p = [...at, i];
    const value = substitute(glob, p, ctx.env, (path, problem) => ctx.findings.error(path, problem), ctx.dir).value;
    checkGlob('tools', value, p, ctx);
    return value;
  });
}

function resolveRule(
  rawProfile: Record<string, unknown>,
  profile: RawProfile,
  kind: RuleKind,
  profilePath: readonly PathSegment[],
  ctx: ProfileContext,
): NameRule {
  const at = [...profilePath, kind];
  const rawRule = rawProfile[kind];
  if (isPlainObject(rawRule)) refuseUnknownKeys(rawRule, KNOWN_KEYS.rule, at, ctx.findings);
  const rule = profile[kind];
  if (rule === undefined) return { allow: ['*'], deny: [] };
  const globs = (list: readonly string[], key: 'allow' | 'deny'): string[] =>
    list.map((g, i) => {
      const p = [...at, key, i];
      const value = substitute(g, p, ctx.env, (path, problem) => ctx.findings.error(path, problem), ctx.dir).value;
      checkGlob(kind, value, p, ctx);
      return value;
    });
  return { allow: rule.allow === undefined ? ['*'] : globs(rule.allow, 'allow'), deny: globs(rule.deny, 'deny') };
}

function checkGlob(kind: RuleKind, glob: string, at: readonly PathSegment[], ctx: ProfileContext): void {
  // A URI may hold any character.
  if (kind === 'resources') return;
  if (kind === 'servers') {
    if (!WILDCARD.test(glob) && !ctx.serverNames.has(glob)) ctx.findings.warn(at, `no server is named ${describeValue(glob)}`);
    return;
  }
  if (!NAME_GLOB.test(glob)) {
    ctx.findings.warn(at, `${describeValue(glob)} can never match: ${kind} names use only A-Z a-z 0-9 _ - (globs add * and ?)`);
  }
}

/** A profile reference (`defaultProfile`, a token's `profile`) must name a configured profile. */
export function checkProfileRef(
  name: string | undefined,
  profiles: Readonly<Record<string, ProfileConfig>>,
  at: readonly PathSegment[],
  findings: Findings,
): void {
  if (name === undefined || profiles[name] !== undefined) return;
  const known = Object.keys(profiles);
  const hint = known.length === 0 ? 'no profiles are configured' : `configured: ${known.join(', ')}`;
  findings.error(at, `unknown profile ${describeValue(name)} (${hint})`);
}
