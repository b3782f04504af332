// Which server a resource URI belongs to, and which URIs the sanitizer withheld: a withheld resource
// (or a URI under a withheld template) is unreadable, as a withheld tool is uncallable.
import type { Logger } from '../log.js';
import type { ServerLists } from '../upstream/types.js';
import type { Reviewed } from './review.js';
import { compileTemplate, type CompiledTemplate } from './uri-template.js';

/** One server as the index needs it: what clients may see, and what the review held back. */
export interface ResourceSource {
  readonly name: string;
  readonly lists: ServerLists;
  readonly withheld: Reviewed['withheld'];
}

/** What a URI resolves to within a set of servers. */
export type Ownership = { readonly server: string } | { readonly withheldBy: string } | undefined;

interface Pattern {
  readonly server: string;
  readonly pattern: CompiledTemplate;
}

export class ResourceOwners {
  private listed = new Map<string, string>();
  private templates: Pattern[] = [];
  private withheldUris = new Map<string, string>();
  private withheldTemplates: Pattern[] = [];

  constructor(private readonly log: Logger) {}

  /** Servers in config order: the first to list a URI owns it. */
  rebuild(servers: Iterable<ResourceSource>): void {
    this.listed = new Map();
    this.templates = [];
    this.withheldUris = new Map();
    this.withheldTemplates = [];
    for (const { name, lists, withheld } of servers) {
      for (const resource of lists.resources) {
        const uri = resource.uri;
        if (typeof uri !== 'string') continue;
        const owner = this.listed.get(uri);
        if (owner === undefined) this.listed.set(uri, name);
        else if (owner !== name) this.log.warn({ uri, owner, alsoListedBy: name }, 'two servers list the same resource URI; reads go to the first');
      }
      for (const template of lists.resourceTemplates) {
        const pattern = typeof template.uriTemplate === 'string' ? compileTemplate(template.uriTemplate) : undefined;
        if (pattern !== undefined) this.templates.push({ server: name, pattern });
      }
      for (const w of withheld) {
        if (w.entity === 'resource' && !this.withheldUris.has(w.name)) this.withheldUris.set(w.name, name);
        if (w.entity !== 'resourceTemplate') continue;
        const pattern = compileTemplate(w.name);
        if (pattern !== undefined) this.withheldTemplates.push({ server: name, pattern });
      }
    }
  }

  /**
   * The owner among `servers`: one that listed the URI, else (unless the URI is withheld) the first
   * whose template matches, else the only one that serves resources. A withheld URI, or one a
   * withheld template matches, is never handed to the fallback: the server that withheld it would
   * answer the read with exactly what the sanitizer kept from the client.
   */
  owner(servers: readonly string[], uri: string, servesResources: (server: string) => boolean): Ownership {
    const listed = this.listed.get(uri);
    if (listed !== undefined && servers.includes(listed)) return { server: listed };
    const withheld = this.withheldUris.get(uri);
    if (withheld !== undefined && servers.includes(withheld)) return { withheldBy: withheld };
    for (const { server, pattern } of this.withheldTemplates) if (servers.includes(server) && pattern.test(uri)) return { withheldBy: server };
    for (const { server, pattern } of this.templates) if (servers.includes(server) && pattern.test(uri)) return { server };
    const withResources = servers.filter(servesResources);
    return withResources.length === 1 ? { server: withResources[0] as string } : undefined;
  }
}
