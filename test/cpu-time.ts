// Time bounds on pure code are CPU time, not wall time: on a machine whose cores other processes
// keep busy, wall time counts their turns too (2.7 s measured for a 0.3 s run), and a bound is
// about this code. Vitest runs each file in a process of its own, so the process's CPU time is ours.

/** Runs `f` and says how many milliseconds of CPU it took (user and system). */
export function cpuTimed<T>(f: () => T): { ms: number; value: T } {
  const before = process.cpuUsage();
  const value = f();
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000, value };
}
