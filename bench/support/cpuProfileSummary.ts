/**
 * Where a V8 CPU profile's time went (`node --cpu-prof`, as `bench/http.ts --cpu-prof DIR` takes
 * of the server): self time grouped by library (the package a function's file belongs to, or the
 * workspace package, or Node's own code), then the functions with the most self time. Idle time
 * is left out of the shares, so they add up to the process's busy time.
 *
 *   node --import tsx bench/support/cpuProfileSummary.ts FILE.cpuprofile [--top 25]
 */
import { readFileSync } from "node:fs"
import { parseArgs } from "node:util"

interface ProfileNode {
  readonly id: number
  readonly callFrame: {
    readonly functionName: string
    readonly url: string
    readonly lineNumber: number
  }
  readonly children?: ReadonlyArray<number>
}

interface CpuProfile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "25" } }
})
const file = positionals[0]
if (file === undefined) {
  process.stderr.write("usage: cpuProfileSummary.ts FILE.cpuprofile [--top 25]\n")
  process.exit(2)
}
const top = Number(values.top)

/** The library a function belongs to, from its script's URL. */
export const libraryOf = (url: string, functionName: string): string => {
  if (url === "") {
    if (functionName === "(garbage collector)") return "GC"
    if (functionName === "(program)" || functionName === "(idle)") return functionName
    return "V8 and native"
  }
  if (url.startsWith("node:")) return "Node.js"
  const modules = url.lastIndexOf("/node_modules/")
  if (modules >= 0) {
    const rest = url.slice(modules + "/node_modules/".length).split("/")
    return rest[0]?.startsWith("@") === true ? `${rest[0]}/${rest[1]}` : rest[0] ?? url
  }
  const workspace = /\/packages\/([^/]+)\//.exec(url)
  return workspace === null ? url : `@filings/${workspace[1]}`
}

const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile
const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const selfMicros = new Map<number, number>()
profile.samples.forEach((id, index) => {
  selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0))
})

const byLibrary = new Map<string, number>()
const byFunction = new Map<string, number>()
let busy = 0
for (const [id, micros] of selfMicros) {
  const node = byId.get(id)
  if (node === undefined) continue
  const { functionName, lineNumber, url } = node.callFrame
  const library = libraryOf(url, functionName)
  if (library === "(idle)") continue
  busy += micros
  byLibrary.set(library, (byLibrary.get(library) ?? 0) + micros)
  const where = url === ""
    ? ""
    : ` ${url.replace(/^.*\/node_modules\//, "").replace(/^.*\/packages\//, "")}:${lineNumber + 1}`
  const name = `${functionName === "" ? "(anonymous)" : functionName}${where}`
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros)
}

const share = (micros: number) => `${((100 * micros) / busy).toFixed(1)} %`
const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1])

const lines = [
  `Busy ${(busy / 1e6).toFixed(1)} s of CPU in ${file}`,
  "",
  "| Library | Self time |",
  "|---|--:|",
  ...sorted(byLibrary).filter(([, micros]) => micros / busy >= 0.005).map(([name, micros]) =>
    `| ${name} | ${share(micros)} |`
  ),
  "",
  "| Function | Self time |",
  "|---|--:|",
  ...sorted(byFunction).slice(0, top).map(([name, micros]) => `| \`${name}\` | ${share(micros)} |`)
]
process.stdout.write(`${lines.join("\n")}\n`)
