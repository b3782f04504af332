// A session's view filter: its token's profile as an upper bound, narrowed by `?profile=` and
// `?tools=` on the endpoint URL (SPEC "Endpoints"), plus the tool budget of a profile.

import type { NameRule, ProfileConfig, SwitchboardConfig } from '../config/types.js';
import type { ViewPolicy } from '../catalog/view-policy.js';
import { compileGlobs, type NameMatcher } from './glob.js';

export { compileGlob, compileGlobs, type NameMatcher } from './glob.js';
export { applyBudget, type BudgetResult, type ToolCost } from '../catalog/view-policy.js';

/** The three lists a profile rules over. */
export type Kind = 'tools' | 'prompts' | 'servers' | 'resources';
const KINDS: readonly Kind[] = ['tools', 'prompts', 'servers', 'resources'];

/** Globs in one `?tools=` value; more is abuse, not a view. */
export const MAX_QUERY_GLOBS = 64;
/** Characters per query glob, as in the config (MAX_GLOB_LENGTH). */
const MAX_QUERY_GLOB_LENGTH = 256;
/** A `?tools=` glob that could match an emitted name (PROTOCOL.md §7) plus the wildcards. */
const NAME_GLOB = /^[A-Za-z0-9_\-*?]+$/;

/**
 * One kind's rule after intersecting every source: a name passes when it matches at least one
 * glob of every allow set and no deny glob. Canonical: sets sorted and deduplicated, sets holding
 * `*` dropped, and a rule that allows nothing is always `{allow: [[]], deny: []}`.
 */
interface CanonicalRule {
  readonly allow: readonly (readonly string[])[];
  readonly deny: readonly string[];
}

interface CompiledRule {
  readonly allow: readonly NameMatcher[];
  readonly deny: NameMatcher;
}

/** What one session may see. Build with resolveViewFilter; equal filters have equal keys. */
export class ViewFilter implements ViewPolicy {
  /** Canonical: two filters with the same key show the same view, so views can be cached by it. */
  readonly key: string;
  /** How the filter came about, for logs: `profile reader, ?tools=fs__*`. */
  readonly label: string;
  /** Most tools in the view, or undefined; the smallest cap of every profile involved. */
  readonly maxTools: number | undefined;
  /** Most estimated tokens of the view's tool definitions, or undefined. */
  readonly maxTokens: number | undefined;
  readonly discovery: 'list' | 'search';
  private readonly rules: Readonly<Record<Kind, CompiledRule>>;
  private readonly pinned: NameMatcher;
  private readonly priority: readonly NameMatcher[];

  /** Use resolveViewFilter (or UNRESTRICTED); this is the one place parts become a filter. */
  constructor(parts: FilterParts, label: string) {
    const canonical = {
      tools: canonicalRule(parts.tools),
      prompts: canonicalRule(parts.prompts),
      servers: canonicalRule(parts.servers),
      resources: canonicalRule(parts.resources),
    };
    this.maxTools = parts.maxTools;
    this.maxTokens = parts.maxTokens;
    this.discovery = parts.search ? 'search' : 'list';
    const pinned = sortedUnique(parts.pinned);
    const open = KINDS.every((k) => canonical[k].allow.length === 0 && canonical[k].deny.length === 0);
    this.key =
      open && this.maxTools === undefined && this.maxTokens === undefined && !parts.search
        ? 'all'
        : JSON.stringify([
            canonical.tools,
            canonical.prompts,
            canonical.servers,
            this.maxTools ?? null,
            this.maxTokens ?? null,
            ...(parts.search ? ['search', pinned] : []),
            ...(canonical.resources.allow.length > 0 || canonical.resources.deny.length > 0 ? ['resources', canonical.resources] : []),
            ...(parts.priority.length > 0 && (this.maxTools !== undefined || this.maxTokens !== undefined) ? ['priority', parts.priority] : []),
          ]);
    this.label = label;
    this.rules = {
      tools: compileRule(canonical.tools),
      prompts: compileRule(canonical.prompts),
      servers: compileRule(canonical.servers),
      resources: compileRule(canonical.resources),
    };
    this.pinned = compileGlobs(pinned);
    this.priority = parts.priority.map((glob) => compileGlobs([glob]));
  }

  priorityOf(name: string): number {
    const rank = this.priority.findIndex((matches) => matches(name));
    return rank === -1 ? Infinity : rank;
  }

  isPinned(name: string): boolean {
    return this.pinned(name);
  }

  allowsServer(server: string): boolean {
    return passes(this.rules.servers, server);
  }

  /** `name` is the namespaced name (`fs__read_file`), as on the aggregate endpoint, even where names are served unprefixed. */
  allowsTool(name: string, server: string): boolean {
    return this.allowsServer(server) && passes(this.rules.tools, name);
  }

  allowsPrompt(name: string, server: string): boolean {
    return this.allowsServer(server) && passes(this.rules.prompts, name);
  }

  /** `uri` is a resource's URI or a template's `uriTemplate`. */
  allowsResource(uri: string, server: string): boolean {
    return this.allowsServer(server) && passes(this.rules.resources, uri);
  }
}

/** Rules as gathered from each source, before canonicalization. */
export interface RuleParts {
  readonly allow: string[][];
  readonly deny: string[];
}
export type FilterParts = Record<Kind, RuleParts> & {
  maxTools: number | undefined;
  maxTokens: number | undefined;
  /** Search mode when any source asks for it: listing less is narrowing. */
  search: boolean;
  /** Pinned globs of every profile involved (a pinned tool is still listed only when allowed). */
  pinned: string[];
  /** Budget order: the priority globs of the profiles involved, the bound profile's first. */
  priority: string[];
};

function emptyParts(): FilterParts {
  return {
    tools: { allow: [], deny: [] },
    prompts: { allow: [], deny: [] },
    servers: { allow: [], deny: [] },
    resources: { allow: [], deny: [] },
    maxTools: undefined,
    maxTokens: undefined,
    search: false,
    pinned: [],
    priority: [],
  };
}

function addRule(into: RuleParts, rule: NameRule): void {
  into.allow.push([...rule.allow]);
  into.deny.push(...rule.deny);
}

function addProfile(into: FilterParts, profile: ProfileConfig): void {
  for (const kind of KINDS) addRule(into[kind], profile[kind]);
  into.maxTools = minCap(into.maxTools, profile.maxTools);
  into.maxTokens = minCap(into.maxTokens, profile.maxTokens);
  if (profile.discovery === 'search') into.search = true;
  into.pinned.push(...profile.pinned);
  into.priority.push(...profile.priority);
}

function minCap(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

const sortedUnique = (list: readonly string[]): string[] => [...new Set(list)].sort();
const NOTHING: CanonicalRule = { allow: [[]], deny: [] };

function canonicalRule(parts: RuleParts): CanonicalRule {
  const deny = sortedUnique(parts.deny);
  if (deny.includes('*')) return NOTHING;
  const sets = new Map<string, string[]>();
  for (const set of parts.allow) {
    const globs = sortedUnique(set);
    if (globs.includes('*')) continue;
    if (globs.length === 0) return NOTHING;
    sets.set(JSON.stringify(globs), globs);
  }
  const allow = [...sets.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);
  return { allow, deny };
}

function compileRule(rule: CanonicalRule): CompiledRule {
  return { allow: rule.allow.map(compileGlobs), deny: compileGlobs(rule.deny) };
}

function passes(rule: CompiledRule, name: string): boolean {
  return !rule.deny(name) && rule.allow.every((m) => m(name));
}

/** A filter that shows everything: auth off and no default profile, no query. */
export const UNRESTRICTED: ViewFilter = new ViewFilter(emptyParts(), 'everything');

/**
 * Why a query cannot be honoured. Every code is answered with HTTP 400 (the transport maps it),
 * except `stale_profile` (403): a query only ever narrows, so nothing it asks is forbidden; it is
 * wrong or it is fine. `stale_profile` means the bounding profile is gone (a reload removed it
 * under a live token); failing closed is the safe answer.
 */
export type ViewFilterError =
  | { readonly code: 'unknown_profile'; readonly status: 400; readonly message: string }
  | { readonly code: 'bad_query'; readonly status: 400; readonly message: string }
  | { readonly code: 'stale_profile'; readonly status: 403; readonly message: string };

export type ViewFilterResult = { readonly ok: true; readonly filter: ViewFilter } | { readonly ok: false; readonly error: ViewFilterError };

const badQuery = (message: string): ViewFilterResult => ({ ok: false, error: { code: 'bad_query', status: 400, message } });
const shown = (value: string): string => JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);

/**
 * `bound` is the profile from the session's identity (a token's profile, or `defaultProfile`
 * for anonymous sessions; see TokenConfig.profile), undefined for no bound. The query's
 * `profile` is intersected with it, never substituted for it, and `tools` intersects the tool
 * rule; other query parameters are ignored. Each parameter may appear once.
 */
export function resolveViewFilter(
  bound: string | undefined,
  query: URLSearchParams,
  config: Pick<SwitchboardConfig, 'profiles'>,
  /**
   * On a per-server endpoint (`/s/<server>/…`) the server's `alias + separator`: there names are
   * served unprefixed, so a `?tools=` glob may be written either way (`read_*` or `fs__read_*`).
   */
  serverPrefix?: string,
): ViewFilterResult {
  const parts = emptyParts();
  const label: string[] = [];
  if (bound !== undefined) {
    const profile = config.profiles[bound];
    if (profile === undefined) {
      return { ok: false, error: { code: 'stale_profile', status: 403, message: `profile ${shown(bound)} of this identity is no longer configured` } };
    }
    addProfile(parts, profile);
    label.push(`profile ${bound}`);
  }

  const profiles = query.getAll('profile');
  if (profiles.length > 1) return badQuery('give ?profile= at most once');
  const asked = profiles[0];
  if (asked !== undefined) {
    const profile = config.profiles[asked];
    if (profile === undefined) {
      return { ok: false, error: { code: 'unknown_profile', status: 400, message: `unknown profile ${shown(asked)} in ?profile=` } };
    }
    addProfile(parts, profile);
    label.push(`?profile=${asked}`);
  }

  const tools = query.getAll('tools');
  if (tools.length > 1) return badQuery('give ?tools= at most once, with globs separated by commas');
  const written = tools[0];
  if (written !== undefined) {
    const globs = written.split(',').map((g) => g.trim());
    if (globs.length > MAX_QUERY_GLOBS) return badQuery(`?tools= holds more than ${MAX_QUERY_GLOBS} globs`);
    for (const glob of globs) {
      if (glob === '') return badQuery('?tools= holds an empty glob; expected globs separated by commas, like fs__read_*,memory__*');
      if (glob.length > MAX_QUERY_GLOB_LENGTH) return badQuery(`a ?tools= glob is longer than ${MAX_QUERY_GLOB_LENGTH} characters`);
      if (!NAME_GLOB.test(glob)) return badQuery(`?tools= glob ${shown(glob)} can never match: tool names use only A-Z a-z 0-9 _ - (globs add * and ?)`);
    }
    parts.tools.allow.push(serverPrefix === undefined ? globs : [...globs, ...globs.map((glob) => serverPrefix + glob)]);
    label.push(`?tools=${globs.join(',')}`);
  }

  const discovery = query.getAll('discovery');
  if (discovery.length > 1) return badQuery('give ?discovery= at most once');
  const mode = discovery[0];
  if (mode !== undefined) {
    // Like the other parameters it only narrows: "search" lists less; "list" is the default and cannot undo a profile's search.
    if (mode !== 'search' && mode !== 'list') return badQuery(`?discovery= must be "search" or "list", got ${shown(mode)}`);
    if (mode === 'search') {
      parts.search = true;
      label.push('?discovery=search');
    }
  }
  return { ok: true, filter: new ViewFilter(parts, label.length === 0 ? 'everything' : label.join(', ')) };
}
