// A background task on a fixed pause (the poller, the killer, the progress line).

/**
 * Runs `task` every `ms` (after each run) until the returned stopper is called or `over()` holds;
 * stopping wakes it at once. A task that throws is logged and run again at the next tick.
 */
export function every(ms: number, task: (tick: number) => Promise<void>, over: () => boolean, log: (line: string) => void): () => Promise<void> {
  let stopped = false;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    for (let tick = 1; ; tick++) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (stopped || over()) break;
      try {
        await task(tick);
      } catch (error) {
        log(`background task failed: ${(error as Error).message}`);
      }
    }
  })();
  return async () => {
    stopped = true;
    wake?.();
    await loop;
  };
}
