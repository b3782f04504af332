// server/discover (2026-07-28, server/discover.mdx): what the proxy offers a stateless client, in
// place of initialize. Capabilities are the view's; tasks are left out (the era moved them to an
// extension the proxy does not serve), and the proxy names itself in `_meta`, not in the body.
import type { JsonObject } from '../jsonrpc/messages.js';
import type { Catalog } from '../catalog/catalog.js';
import type { View } from '../catalog/view.js';
import { META_SERVER_INFO, STATELESS_PROTOCOL_VERSIONS, SWITCHBOARD_INFO } from '../protocol.js';
import type { CacheScope } from './results.js';

export function discoverResult(catalog: Catalog, view: View, cacheScope: CacheScope): JsonObject {
  const { tasks: _tasks, ...capabilities } = catalog.capabilities(view);
  const result: JsonObject = {
    resultType: 'complete',
    supportedVersions: [...STATELESS_PROTOCOL_VERSIONS],
    capabilities,
    ttlMs: 0,
    cacheScope,
    _meta: { [META_SERVER_INFO]: SWITCHBOARD_INFO },
  };
  const instructions = catalog.instructions(view);
  if (instructions !== undefined) result.instructions = instructions;
  return result;
}
