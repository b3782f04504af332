// The tasks a child created for callers (tasks.mdx): who owns each, under which name the caller
// knows it, and the renaming of task ids in results and status notifications.
import { isObject, type JsonObject, type JsonRpcNotification } from '../jsonrpc/messages.js';
import type { Caller, Pending } from './types.js';

/** Tasks remembered per child, tasks; servers expire their own tasks by TTL, we only bound the index. */
const MAX_TASKS = 10_000;

/** Result metadata key that ties a message to a task (tasks.mdx). */
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

export interface TaskOwner {
  readonly caller: Caller;
  readonly downstreamTaskId: string;
}

/** Puts the caller's task id back wherever a tasks/* result carries the child's (Task fields, related-task meta). */
export function restoreTaskId(result: JsonObject, downstreamTaskId: string): boolean {
  let changed = false;
  if (typeof result.taskId === 'string') {
    result.taskId = downstreamTaskId;
    changed = true;
  }
  const meta = result._meta;
  const related = isObject(meta) ? meta[RELATED_TASK] : undefined;
  if (isObject(related) && typeof related.taskId === 'string') {
    related.taskId = downstreamTaskId;
    changed = true;
  }
  return changed;
}

/** Child task id -> its creator, for one child; bounded, oldest forgotten first. */
export class TaskIndex {
  private readonly owners = new Map<string, TaskOwner>();

  /** A task-augmented request's result names a new task: the caller names it its own way, rewritten in `result`. */
  created(entry: Pending, result: JsonObject): boolean {
    const task = result.task;
    if (!isObject(task) || typeof task.taskId !== 'string' || entry.caller === null) return false;
    const downstreamTaskId = entry.caller.taskCreated(task.taskId, entry.connection);
    if (this.owners.size >= MAX_TASKS) this.owners.delete(this.owners.keys().next().value as string);
    this.owners.set(task.taskId, { caller: entry.caller, downstreamTaskId });
    task.taskId = downstreamTaskId;
    return true;
  }

  /** Who created a task of this child, and what they call it. */
  owner(childTaskId: unknown): TaskOwner | undefined {
    return typeof childTaskId === 'string' ? this.owners.get(childTaskId) : undefined;
  }

  /** Delivers notifications/tasks/status to the task's creator under its name; false when nobody here created it. */
  deliverStatus(message: JsonRpcNotification): boolean {
    const params = message.params;
    const owner = this.owner(params?.taskId);
    if (owner === undefined || params === undefined) return false;
    params.taskId = owner.downstreamTaskId;
    owner.caller.deliver(message, undefined);
    return true;
  }
}
