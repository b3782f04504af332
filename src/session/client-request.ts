// One client request as the router took it: the message, its method's stats slot and when it
// arrived. It goes with the request through the router and is counted once, when the request ends
// (answered, cancelled or refused), so no handler has to remember which request is "current".
import type { JsonRpcId, JsonRpcRequest } from '../jsonrpc/messages.js';
import type { OutcomeCounter } from '../upstream/types.js';

export interface ClientRequest {
  /** The client's id for it; kept apart from `message`, whose id becomes the child's once it is sent on. */
  readonly id: JsonRpcId;
  readonly message: JsonRpcRequest;
  /** The method's slot in stats.ts' METHODS. */
  readonly slot: number;
  /** When it arrived, on the stats clock (ms, monotonic); its answer's latency is measured from here. */
  readonly receivedAt: number;
  /** A tools/call's counter per server and tool, once its route is known (tool-stats.ts). */
  tool: OutcomeCounter | undefined;
}
