// What the catalog shows of each server after sanitization: every model-visible entity through the
// sanitizer with the whole catalog's names in view, tools compared with their pins, findings
// logged once. Runs when a list changes, never per request.
import { LRUCache } from 'lru-cache';
import { FindingsLog, type FindingNote } from './findings-log.js';
import { NameLookups, changedNames } from './name-lookups.js';
import { FilePinKeeper, type PinKeeper, type PinReloaded } from './pin-keeper.js';
import { openPinKeeper } from './pin-redis.js';
import type { Logger } from '../log.js';
import type { ServerConfig, SwitchboardConfig } from '../config/types.js';
import type { JsonObject } from '../jsonrpc/messages.js';
import type { ServerLists } from '../upstream/types.js';
import { blockingRules, entityName, pinIdentity, pinKey, sameBlockingRules, withAcceptedUpdate } from './review-policy.js';
import {
  AuditLog,
  CatalogIndex,
  type PinStore,
  canonicalHash,
  isServerSuspect,
  sanitizeEntity,
  acceptanceCovers,
  withAcceptance,
  toRecords,
  withPinCheck,
  shippedModelProblem,
  hijackLexiconProblem,
  type AuditRecord,
  type PinCheck,
  type EntityKind,
  type Finding,
  type SanitizeResult,
  type ServerNames,
} from '../sanitize/index.js';

/** One server's raw material: its config, its lists and instructions exactly as the child sent them. */
export interface ReviewInput {
  readonly config: ServerConfig;
  readonly lists: ServerLists;
  readonly instructions: string | undefined;
  /** Listing generation of this server (initial, after list_changed, after restart). */
  readonly listing: number;
}

/** What clients may see of one server, and what was held back. */
export interface Reviewed {
  readonly lists: ServerLists;
  readonly instructions: string | undefined;
  /** Entities withheld, with the rules that withheld them. */
  readonly withheld: readonly { readonly entity: EntityKind; readonly name: string; readonly rules: readonly string[] }[];
  /** Findings in this listing, all rules (flags included). */
  readonly findings: number;
  /** Two or more tools blocked, or a hidden channel decoded to an instruction (SANITIZE.md). */
  readonly suspect: boolean;
}

export type { FindingNote } from './findings-log.js';

export interface ReviewOptions {
  readonly pins: PinStore;
  /** Where the pins are saved and reloaded from; default: the pin file `pins` was read from. */
  readonly keeper?: PinKeeper;
  /** Undefined: findings are not written anywhere but the daemon's log (tests, `switchboard tools`). */
  readonly auditLog: AuditLog | undefined;
  readonly blocking: boolean;
  /** false: the learned second opinion stays silent (sanitize.learnedIntent). Default true. */
  readonly learnedIntent?: boolean;
  readonly separator: string;
  readonly log: Logger;
  /** false: pins are compared but never written (`switchboard check` next to a running daemon). */
  readonly persistPins: boolean;
}

const LIST_KIND: ReadonlyArray<[keyof ServerLists, EntityKind]> = [
  ['tools', 'tool'],
  ['prompts', 'prompt'],
  ['resources', 'resource'],
  ['resourceTemplates', 'resourceTemplate'],
];

/** A sanitizer verdict for one entity JSON, and its pin check against one generation of pins. */
interface Verdict {
  readonly result: SanitizeResult<JsonObject>;
  pin: { readonly generation: number; readonly id: string; readonly check: PinCheck } | undefined;
  /** The generation of the server's own tool names it was made under (mentions of those are never cross-server). */
  readonly ownNames: number;
  /** What it asked of the catalog's names; checked against the names that change. */
  readonly lookups: NameLookups;
  /** The names generation it is known to hold under. */
  namesGeneration: number;
}

/** Verdicts remembered by entity JSON; more than a few catalogs' worth only bounds a hostile server. */
const MAX_MEMO_ENTRIES = 20_000;


export class CatalogReview {
  private readonly keeper: PinKeeper;
  private indexSignature = '';
  /** Bumped whenever any server's names change: remembered verdicts are then checked against the change. */
  private namesGeneration = 0;
  private names: readonly ServerNames[] = [];
  /** The names that came or went at the last change, as an index; undefined before the first. */
  private lastChange: CatalogIndex | undefined;
  /** Each server's own tool names, and a generation bumped when they change. */
  private readonly ownNames = new Map<string, { signature: string; generation: number }>();
  private ownGeneration = 0;
  private readonly memo = new LRUCache<string, Verdict>({ max: MAX_MEMO_ENTRIES });
  /** Bumped whenever the pins change under the memo (another writer's pins loaded, an approval). */
  private pinsGeneration = 0;
  /** Told of each finding the first time it is seen (the status page, metrics). */
  onFinding: ((note: FindingNote) => void) | undefined;

  private readonly findingsLog: FindingsLog;

  constructor(private readonly options: ReviewOptions) {
    this.keeper = options.keeper ?? new FilePinKeeper(options.pins, options.log);
    this.findingsLog = new FindingsLog(options.auditLog, options.log);
  }

  /** The pins in use; replaced when another writer changed them (an approval). */
  get pins(): PinStore {
    return this.keeper.pins;
  }

  /** The shared pin store's health (switchboard_pin_store_up); undefined when pins are in a file. */
  get pinStore(): { readonly reachable: boolean } | undefined {
    return this.keeper.shared;
  }

  /**
   * Follows the pins' store: `switchboard approve` changes them from another process (and other
   * instances, with a shared store), and the approved tools must come back without a restart.
   * Calls `onChange` after the new pins are in use; `reloaded` as PinKeeper.follow says.
   */
  watchPins(onChange: () => void, reloaded?: PinReloaded): void {
    this.keeper.follow(() => {
      this.pinsGeneration += 1;
      onChange();
    }, reloaded);
  }

  /**
   * Resolves once every finding of the reviews run so far is in the sanitization log: with
   * Catalog.listingOf, what a test waits on to say a listing wrote nothing.
   */
  settled(): Promise<void> {
    return this.findingsLog.settled();
  }

  /** Stops following the pins (after the save in flight) and flushes the log. */
  async close(): Promise<void> {
    await this.keeper.close();
    await this.findingsLog.close();
  }

  /** Reviews every server against the names of all of them; cross-server rules need the whole catalog. */
  /** `configured`: every server of the config, which pin identities depend on (default: the listed ones). */
  run(inputs: readonly ReviewInput[], configured: readonly ServerConfig[] = inputs.map((input) => input.config)): Map<string, Reviewed> {
    const names = inputs.map((input) => ({
      server: input.config.name,
      aliases: [input.config.alias],
      tools: input.lists.tools.flatMap((tool) => (typeof tool.name === 'string' ? [tool.name] : [])),
    }));
    // Verdicts depend on the entity and on the names around it: an entity listed before with the
    // same JSON keeps its verdict without a rescan while the names stay, so a list_changed that
    // touched one tool of a thousand rescans one; when names change (a server came, went, renamed
    // a tool), a verdict holds if the lookups it made still get the same answers (name-lookups.ts).
    const signature = JSON.stringify(names);
    if (signature !== this.indexSignature) {
      this.indexSignature = signature;
      this.namesGeneration += 1;
      this.lastChange = new CatalogIndex(changedNames(this.names, names));
      this.names = names;
    }
    const index = new CatalogIndex(names);
    const out = new Map<string, Reviewed>();
    const records: AuditRecord[] = [];
    for (const input of inputs) out.set(input.config.name, this.reviewServer(input, pinIdentity(input.config, configured), index, records));
    if (this.options.persistPins && this.keeper.pins.changed) void this.keeper.save();
    if (records.length > 0) this.findingsLog.write(records, this.onFinding);
    return out;
  }

  /** A number that changes when the server's own tool names do. */
  private ownNamesGeneration(server: string, own: ReadonlySet<string>): number {
    const signature = JSON.stringify([...own]);
    const known = this.ownNames.get(server);
    if (known?.signature === signature) return known.generation;
    const generation = ++this.ownGeneration;
    this.ownNames.set(server, { signature, generation });
    return generation;
  }

  /**
   * A remembered verdict holds while the server's own names are the same and none of the names it
   * looked up came or went: checked against the last change when it held just before it, else
   * made again (an entity not listed for a while).
   */
  private stillHolds(verdict: Verdict, ownNames: number): boolean {
    if (verdict.ownNames !== ownNames) return false;
    if (verdict.namesGeneration === this.namesGeneration) return true;
    if (verdict.namesGeneration !== this.namesGeneration - 1 || this.lastChange === undefined || verdict.lookups.touchedBy(this.lastChange)) return false;
    verdict.namesGeneration = this.namesGeneration;
    return true;
  }

  private reviewServer(input: ReviewInput, id: string, index: CatalogIndex, records: AuditRecord[]): Reviewed {
    const { config } = input;
    const ownToolNames = new Set(input.lists.tools.flatMap((tool) => (typeof tool.name === 'string' ? [tool.name] : [])));
    const ownNames = this.ownNamesGeneration(config.name, ownToolNames);
    const context = { server: config.name, ownToolNames, otherServers: index, blocking: this.options.blocking, learnedIntent: this.options.learnedIntent };
    const withheld: Array<{ entity: EntityKind; name: string; rules: string[] }> = [];
    const results: Array<SanitizeResult<unknown>> = [];
    let findings = 0;
    const lists = {} as { -readonly [K in keyof ServerLists]: JsonObject[] };
    for (const [key, kind] of LIST_KIND) {
      const kept: JsonObject[] = [];
      for (const item of input.lists[key]) {
        const name = entityName(kind, item);
        const memoKey = `${config.name}\u0000${kind}\u0000${JSON.stringify(item)}`;
        let verdict = this.memo.get(memoKey);
        if (verdict === undefined || !this.stillHolds(verdict, ownNames)) {
          const recorder = NameLookups.recorder(index);
          const result = sanitizeEntity(kind, item, { ...context, otherServers: recorder }) as SanitizeResult<JsonObject>;
          // The pin check is about the same JSON: it carries over unless what blocks it changed
          // (approve shows those rules), which saves hashing every tool of every server again.
          const pin = verdict !== undefined && sameBlockingRules(verdict.result, result) ? verdict.pin : undefined;
          verdict = { result, pin, ownNames, lookups: recorder.done(), namesGeneration: this.namesGeneration };
          this.memo.set(memoKey, verdict);
        }
        const { result, pinned } = this.withPin(verdict, config, id, pinKey(kind, name), item);
        results.push(result);
        findings += result.findings.length;
        if (result.blocked) withheld.push({ entity: kind, name, rules: blockingRules(result) });
        else kept.push(result.forwarded);
        if (result.findings.length > 0) {
          records.push(...this.toRecords(result.findings, input, id, kind, name, item, result.blocked, pinned));
        }
      }
      lists[key] = kept;
    }
    let instructions = input.instructions;
    if (instructions !== undefined) {
      // Instructions are one string per server, judged afresh each time (no memo), and pinned like
      // any entity: an injection that arrives with a restart is a rug pull too.
      const judged = sanitizeEntity('instructions', instructions, context);
      const { result, pinned } = this.withPin({ result: judged, pin: undefined }, config, id, pinKey('instructions', ''), instructions);
      results.push(result);
      findings += result.findings.length;
      instructions = result.blocked ? undefined : result.forwarded;
      if (result.blocked) withheld.push({ entity: 'instructions', name: '', rules: blockingRules(result) });
      if (result.findings.length > 0) records.push(...this.toRecords(result.findings, input, id, 'instructions', '', input.instructions, result.blocked, pinned));
    }
    const suspect = isServerSuspect(results);
    if (withheld.length > 0) {
      this.options.log.warn(
        { server: config.name, withheld: withheld.map((w) => `${w.entity} ${w.name} (${w.rules.join(', ')})`), suspect },
        'sanitization withheld entities; the rest of the server is served',
      );
    }
    return { lists, instructions, withheld, findings, suspect };
  }

  /**
   * The verdict with its pin's: a definition that changed since it was approved is withheld until
   * approved again, whatever kind of entity it is (a prompt or the server's instructions turned
   * into an injection by list_changed or a restart is a rug pull like a tool's).
   */
  private withPin<T>(
    verdict: { readonly result: SanitizeResult<T>; pin: Verdict['pin'] },
    config: ServerConfig,
    id: string,
    key: string,
    item: unknown,
  ): { result: SanitizeResult<T>; pinned: { sha: string | null; diff: readonly string[] } } {
    // The same JSON against the same pins gets the same answer: hashing every tool's fields on
    // every listing is most of a relist's cost. Pins are per server identity: a reload that changed
    // the command line must pin (and later compare) under the new one, so a remembered check
    // counts only for the same id. It also needs the store to still say the same: a definition
    // that went back to its pin must clear the pending change it left (else an approval of the
    // server would later approve a definition it no longer serves).
    const remembered = verdict.pin;
    const still = remembered?.generation === this.pinsGeneration && remembered.id === id && this.keeper.pins.stillHolds(id, key, remembered.check);
    let check = still ? remembered.check : undefined;
    if (check === undefined) {
      // The rules that withhold it whatever the pin says: `approve` must not promise to serve it.
      check = this.keeper.pins.checkEntity(id, key, item, config.name, blockingRules(verdict.result));
      verdict.pin = { generation: this.pinsGeneration, id, check };
    }
    let result: SanitizeResult<T>;
    // acceptUpdates: the server's own updates are trusted; re-pin instead of withholding, and log
    // the change as a flag (SANITIZE.md rug-pull: "log the diff"), so audit still shows it.
    if (check.status === 'changed' && config.acceptUpdates) {
      this.keeper.pins.approve(id, key);
      verdict.pin = { generation: this.pinsGeneration, id, check: { ...check, status: 'same', pinnedSha256: check.sha256, changedFields: [] } };
      result = withAcceptedUpdate(verdict.result, check, item);
    } else result = withPinCheck(verdict.result, check, item);
    // An operator accepted this very definition's findings (`switchboard approve SERVER TOOL`):
    // served, its findings flagged. Any other definition, or a rule not accepted, is judged anew.
    const acceptance = result.blocked ? this.keeper.pins.acceptance(id, key) : undefined;
    if (acceptanceCovers(acceptance, check.sha256, blockingRules(result))) result = withAcceptance(result, acceptance);
    return { result, pinned: { sha: check.pinnedSha256, diff: check.changedFields } };
  }

  private toRecords(
    findings: readonly Finding[],
    input: ReviewInput,
    id: string,
    entity: EntityKind,
    name: string,
    item: unknown,
    blocked: boolean,
    pinned: { sha: string | null; diff: readonly string[] },
  ): AuditRecord[] {
    const exposedAs = blocked ? null : entity === 'tool' || entity === 'prompt' ? `${input.config.alias}${this.options.separator}${name}` : name;
    return toRecords(findings, {
      server: input.config.name,
      serverId: id,
      entity,
      tool: name,
      exposedAs,
      toolSha256: canonicalHash(item),
      pinnedSha256: pinned.sha,
      diff: pinned.diff,
      listing: input.listing,
    });
  }
}

export { pinIdentity, pinKey } from './review-policy.js';

/** Opens the pins (file or shared Redis) and the log named by the config; a corrupt pin file or an unreachable Redis is an error, not an empty store. */
export async function openReview(
  config: SwitchboardConfig,
  log: Logger,
  options: { readonly writeLog: boolean; readonly persistPins: boolean; readonly pinLog?: Logger },
): Promise<CatalogReview> {
  const keeper = await openPinKeeper(config, options.pinLog ?? log, { writable: options.persistPins });
  const modelProblem = config.sanitize.learnedIntent ? shippedModelProblem() : undefined;
  // Said once: without the model the rules alone judge tools, which a user who counts on it must know.
  if (modelProblem !== undefined) log.warn({ problem: modelProblem }, 'learned second opinion unavailable; the rules alone judge tools');
  const lexiconProblem = hijackLexiconProblem();
  if (lexiconProblem !== undefined) log.warn({ problem: lexiconProblem }, 'word lists unavailable or incomplete: what the missing lists read (hijacks and prerequisites through a tool named by what it does, the learned second opinion\'s concepts of them) goes unread');
  const auditLog = options.writeLog
    ? await AuditLog.open({ path: config.sanitize.log, maxBytes: config.sanitize.logMaxBytes, keep: config.sanitize.logKeep, instance: config.instance })
    : undefined;
  return new CatalogReview({
    pins: keeper.pins,
    keeper,
    auditLog,
    blocking: config.sanitize.blocking,
    learnedIntent: config.sanitize.learnedIntent,
    separator: config.namespace.separator,
    log,
    persistPins: options.persistPins,
  });
}

