// Task-augmented tools/call through the proxy: the task's creator can follow it, nobody else can.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { connect, fixture, startProxy, textOf, waitFor } from './helpers.js';

describe('tasks', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    proxy = await startProxy({
      mcpServers: { everything: { command: 'mcp-server-everything', args: ['stdio'] }, red: fixture('red'), blue: fixture('blue') },
    });
  });
  afterAll(async () => proxy?.close());

  it('runs a task-only tool of server-everything to its result, routed by task id', async () => {
    const client = await connect(proxy);
    const other = await connect(proxy);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'everything__simulate-research-query')?.execution).toEqual({ taskSupport: 'required' });

    let taskId: string | undefined;
    let result: unknown;
    const stream = client.experimental.tasks.callToolStream(
      { name: 'everything__simulate-research-query', arguments: { topic: 'switchboards' } },
      CallToolResultSchema,
    );
    for await (const message of stream) {
      if (message.type === 'taskCreated') {
        taskId = message.task.taskId;
        // Another session cannot see or fetch this task.
        await expect(other.experimental.tasks.getTask(taskId)).rejects.toThrow(/Unknown task/);
      }
      if (message.type === 'result') result = message.result;
      if (message.type === 'error') throw message.error;
    }
    expect(taskId).toBeDefined();
    expect(textOf(result)).toContain('switchboards');
    const task = await client.experimental.tasks.getTask(taskId!);
    expect(task.status).toBe('completed');
    await client.close();
    await other.close();
  }, 60_000);

  it('keeps two servers\' identical task ids apart, in results, polls and status notifications', async () => {
    const { TaskStatusNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const client = await connect(proxy);
    const statuses: string[] = [];
    client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void statuses.push(`${n.params.taskId}:${n.params.status}`));
    const ids: Record<string, string> = {};
    for (const server of ['red', 'blue']) {
      const stream = client.experimental.tasks.callToolStream({ name: `${server}__echo`, arguments: { text: server } }, CallToolResultSchema, { task: {} });
      for await (const message of stream) {
        if (message.type === 'taskCreated') ids[server] = message.task.taskId;
        if (message.type === 'result') expect(textOf(message.result)).toBe(`${server} task task-1: ${server}`);
        if (message.type === 'error') throw message.error;
      }
    }
    // Both servers called their task "task-1"; the client sees two different ids, each routed home.
    expect(ids.red).toBeDefined();
    expect(ids.red).not.toBe(ids.blue);
    expect((await client.experimental.tasks.getTask(ids.red!)).taskId).toBe(ids.red);
    const blue = await client.experimental.tasks.getTaskResult(ids.blue!, CallToolResultSchema);
    expect(textOf(blue)).toBe('blue task task-1: blue');
    expect((blue._meta as Record<string, { taskId: string }>)['io.modelcontextprotocol/related-task']?.taskId).toBe(ids.blue);
    await waitFor(() => statuses.length >= 2, 15_000, 'both task status notifications');
    expect(statuses.sort()).toEqual([`${ids.blue}:completed`, `${ids.red}:completed`].sort());
    await client.close();
  });
});
