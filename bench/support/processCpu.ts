/**
 * The CPU time a process has used so far, read from Linux's `/proc/<pid>/stat` (user plus system
 * time). Requests per second move with whatever else the machine runs; the CPU time a server spends
 * per request moves far less, so a benchmark can report both. Elsewhere than Linux there is no
 * reading, and the benchmark leaves the column out.
 */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"

/** Clock ticks a second, the unit of `/proc/<pid>/stat` times: 100 on nearly every Linux. */
const ticksPerSecond = (() => {
  try {
    const ticks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim())
    return Number.isInteger(ticks) && ticks > 0 ? ticks : 100
  } catch {
    return 100
  }
})()

/** Seconds of CPU the process `pid` has used, or undefined where `/proc` cannot tell. */
export const cpuSeconds = (pid: number): number | undefined => {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  } catch {
    return undefined
  }
  // The command name (field 2) is in parentheses and may hold spaces; utime and stime are fields
  // 14 and 15, the 12th and 13th after the closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  const userTicks = Number(fields[11])
  const systemTicks = Number(fields[12])
  return Number.isFinite(userTicks) && Number.isFinite(systemTicks)
    ? (userTicks + systemTicks) / ticksPerSecond
    : undefined
}
