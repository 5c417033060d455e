import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * CPU time (and a server's resident memory) read from Linux's /proc, to show where a benchmark's
 * CPU goes when the load generator, the servers and the database share one machine. Elsewhere
 * `available` is false and the figures are left out.
 */
export const available = fs.existsSync('/proc/stat') && fs.existsSync('/proc/self/stat');

const ticksPerSecond = (() => {
  const tck = available ? Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) : NaN;
  return Number.isFinite(tck) && tck > 0 ? tck : 100;
})();

interface ProcStat {
  ppid: number;
  /** utime + stime of the process itself, in seconds. */
  own: number;
  /** cutime + cstime: the children it has waited for, in seconds. */
  reaped: number;
}

function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone between listing and reading
  }
  // The command name (field 2) may hold spaces and parentheses; the fields after its last ')' are plain numbers.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ').map(Number);
  const at = (field: number) => fields[field - 3] ?? 0; // field 3 (state) is fields[0]
  return { ppid: at(4), own: (at(14) + at(15)) / ticksPerSecond, reaped: (at(16) + at(17)) / ticksPerSecond };
}

const pids = () => fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);

/**
 * CPU seconds of a process and every process below it, including the children that already ended
 * (PostgreSQL's postmaster with its backends, one per pooled connection).
 */
export function treeCpuSeconds(rootPid: number): number {
  const stats = new Map<number, ProcStat>();
  for (const pid of pids()) {
    const stat = readStat(pid);
    if (stat) stats.set(pid, stat);
  }
  const root = stats.get(rootPid);
  if (!root) return 0;
  const inTree = new Set([rootPid]);
  // Repeated until nothing is added: a child may be listed before its parent.
  for (let added = true; added; ) {
    added = false;
    for (const [pid, stat] of stats) {
      if (!inTree.has(pid) && inTree.has(stat.ppid)) {
        inTree.add(pid);
        added = true;
      }
    }
  }
  let seconds = root.reaped;
  for (const pid of inTree) seconds += stats.get(pid)?.own ?? 0;
  return seconds;
}

/** CPU seconds of one process (a Node server: one process, its threads included). */
export const processCpuSeconds = (pid: number): number => readStat(pid)?.own ?? 0;

/** CPU seconds of this process (the load generator runs in it). */
export const selfCpuSeconds = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** Busy CPU seconds of the whole machine, summed over its cores (everything but idle and iowait). */
export function machineBusySeconds(): number {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [, ...values] = line.trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already counted in user).
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = values;
  return (user + nice + system + irq + softirq + steal) / ticksPerSecond;
}

/** The first process whose command line has every one of `parts` among its arguments and whose name is `comm`. */
export function findProcess(comm: string, parts: string[]): number | undefined {
  for (const pid of pids()) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== comm) continue;
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (parts.every((part) => args.includes(part))) return pid;
    } catch {
      // gone between listing and reading
    }
  }
  return undefined;
}

export const isRunning = (pid: number): boolean => fs.existsSync(`/proc/${pid}`);

/** A process's resident memory now (VmRSS) and its high-water mark since it started (VmHWM), in bytes; undefined once it is gone or without /proc. */
export function memoryOf(pid: number): { rssBytes: number; peakRssBytes: number } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kb = (field: string) => Number(text.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN) * 1024;
  const rssBytes = kb('VmRSS');
  return Number.isFinite(rssBytes) ? { rssBytes, peakRssBytes: kb('VmHWM') } : undefined;
}
