// Clocks for the fuzzer: a monotonic now, in ms, and a pause.
import { performance } from 'node:perf_hooks';

export const now = (): number => performance.now();
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
