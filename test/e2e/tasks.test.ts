// Task-augmented tools/call through the proxy: the task's creator can follow it, nobody else can.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { connect, startProxy, textOf } from './helpers.js';

describe('tasks', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { everything: { command: 'mcp-server-everything', args: ['stdio'] } } });
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
});
