// Every attack kind, by the name the report and --exclude use, with its weight in each worker's draw.
import type { Worker } from '../worker.js';
import {
  attackBadEnvelope, attackBatch, attackHeaders, attackHugeBody, attackInvalidJson, attackLong, attackMethods, attackNested,
  attackPaths, attackUtf8,
} from './http-input.js';
import {
  attackDelete, attackFxCall, attackGarbageCall, attackGetStream, attackOrigin, attackResume, attackSessionChurn, attackWeirdRpc,
} from './http-session.js';
import { attackSse, attackStuckReader } from './sse.js';
import { attackBadUpgrade, attackRawWs, attackWs } from './ws.js';
import { attackTcp } from './tcp.js';
import { attackStateless } from './stateless.js';

export type Attack = (w: Worker) => Promise<void>;
export type AttackEntry = readonly [kind: string, weight: number, run: Attack];

export { attackStuckReader };

export const ATTACKS: readonly AttackEntry[] = [
  ['http.invalid_json', 6, attackInvalidJson],
  ['http.bad_envelope', 6, attackBadEnvelope],
  ['http.batch', 4, attackBatch],
  ['http.nested', 3, attackNested],
  ['http.huge_body', 2, attackHugeBody],
  ['http.utf8', 3, attackUtf8],
  ['http.headers', 6, attackHeaders],
  ['http.methods', 4, attackMethods],
  ['http.paths', 4, attackPaths],
  ['http.long', 2, attackLong],
  ['http.get_stream', 3, attackGetStream],
  ['http.delete', 2, attackDelete],
  ['http.weird_rpc', 8, attackWeirdRpc],
  ['http.resume', 3, attackResume],
  ['http.origin', 3, attackOrigin],
  ['http.session_churn', 2, attackSessionChurn],
  ['garbage.call', 8, attackGarbageCall],
  ['fx.call', 5, attackFxCall],
  ['sse.session', 4, attackSse],
  ['sse.stuck_reader', 1, attackStuckReader],
  ['ws.session', 5, attackWs],
  ['ws.raw', 4, attackRawWs],
  ['ws.bad_upgrade', 2, attackBadUpgrade],
  ['tcp', 4, attackTcp],
  ['stateless', 5, attackStateless],
];
