// What a find_tools answer says of the servers whose tools it could not search: those still in
// their first start (not listed yet: search again once they are up) and those down (their tools,
// if any were listed, are found but cannot be called now). One short line, because the model
// reads it after every search.

/** The view's servers a search could not fully answer for, in view order. */
export interface PendingServers {
  readonly starting: readonly string[];
  readonly down: ReadonlyArray<{ readonly name: string; readonly reason: string | undefined }>;
}

/** Servers named in the line; past it, "and N more". */
const MAX_NAMED = 8;
/** Characters of a down server's reason: enough for "exited with code 1: API_KEY is not set". */
const MAX_REASON_CHARS = 80;

export const NO_PENDING: PendingServers = { starting: [], down: [] };

/** The line, or undefined when every server of the view is up (or restarting with its tools listed). */
export function pendingNote(pending: PendingServers): string | undefined {
  const parts: string[] = [];
  if (pending.starting.length > 0) {
    parts.push(`Still starting: ${named(pending.starting)} (not searched yet; search again in a moment).`);
  }
  if (pending.down.length > 0) {
    const downs = pending.down.map(({ name, reason }) => (reason === undefined ? name : `${name} (${clip(oneLine(reason))})`));
    const one = pending.down.length === 1;
    parts.push(`Down now: ${named(downs)}; ${one ? 'its' : 'their'} tools cannot be called until ${one ? 'it is' : 'they are'} back.`);
  }
  return parts.length === 0 ? undefined : parts.join(' ');
}

function named(items: readonly string[]): string {
  const shown = items.slice(0, MAX_NAMED).join(', ');
  return items.length > MAX_NAMED ? `${shown} and ${items.length - MAX_NAMED} more` : shown;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function clip(text: string): string {
  return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS - 1)}…` : text;
}
