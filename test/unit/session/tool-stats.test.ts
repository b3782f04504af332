// Per-tool series are bounded: beyond MAX_TOOL_SERIES, a server's further tools count as its `other`.
import { describe, expect, it } from 'vitest';
import { MAX_TOOL_SERIES, OTHER_TOOL, ToolStats } from '../../../src/session/tool-stats.js';

describe('tool call series', () => {
  it('counts outcomes and latency per tool, and rolls tools beyond the cap into other', () => {
    const stats = new ToolStats();
    const echo = stats.series('fx', 'echo');
    expect(stats.series('fx', 'echo')).toBe(echo);
    echo.record({ jsonrpc: '2.0', id: 1, result: { content: [] } }, 3);
    echo.record({ jsonrpc: '2.0', id: 2, result: { content: [], isError: true } }, 30);
    echo.record({ jsonrpc: '2.0', id: 3, error: { code: -32001, message: 'timeout' } }, 70_000);
    expect([...echo.outcomes]).toEqual([1, 1, 1]);
    expect(echo.latency[0]).toBe(1);
    expect(echo.latency[2]).toBe(1);
    expect(echo.latency.at(-1)).toBe(1);
    expect(echo.latencySumMs).toBe(70_033);

    for (let i = 1; i < MAX_TOOL_SERIES; i++) stats.series('many', `tool_${i}`);
    const late = stats.series('many', 'one_too_many');
    expect(late.tool).toBe(OTHER_TOOL);
    expect(stats.series('fx', 'another')).toMatchObject({ server: 'fx', tool: OTHER_TOOL });
    // Tools seen before the cap keep their own series.
    expect(stats.series('many', 'tool_1').tool).toBe('tool_1');
    const series = [...stats.all()];
    expect(series.length).toBe(MAX_TOOL_SERIES + 2);
  });
});
