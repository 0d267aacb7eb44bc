/**
 * The libraries as someone else's project gets them, following the repository README's own
 * commands: its `npm run pack` builds and packs every library into `release/`, and its `npm install`
 * line, run as written in a fresh project outside the workspace (no workspace links), installs the
 * tarballs it names beside `effect@3`. Two more projects get every library's tarball beside
 * `effect` and the `@effect/*` packages, once at the lowest release the peer ranges allow and once
 * at the newest releases they admit (the newest 3.x `effect`); each type-checks a TypeScript
 * consumer (`test/consumer/consumer.ts`) with `moduleResolution` `nodenext` and `bundler`. Every
 * project runs a plain JavaScript program (`test/consumer/smoke.mjs`) that parses a 10-K of the
 * corpus, extracts its metrics and verifies a webhook signature through the Promise doors. Needs
 * the npm registry (or a warm npm cache); takes a few minutes.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { createHmac } from "node:crypto"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { corpusDir, corpusMissing } from "./support/corpus.js"
import { repositoryRoot } from "./support/filings.js"
import { readmeSection, shellBlocks } from "./support/quickStart.js"

const run = promisify(execFile)

/** The published libraries; the server is an application (private) and is not installed by others. */
const libraries = [
  "domain",
  "edgar",
  "extractor",
  "feed-summarizer",
  "filings-parser",
  "storage",
  "storage-sql",
  "webhook-signer"
]

const tenK = join(corpusDir, "10-K/aapl-10k-fy2024.htm")
const fixtures = join(repositoryRoot, "test/consumer")
const tsc = join(repositoryRoot, "node_modules/typescript/bin/tsc")

interface PackageJson {
  readonly name: string
  readonly version: string
  readonly private?: boolean
  readonly dependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>
}

const readPackage = (directory: string): PackageJson =>
  JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as PackageJson

const isEffectPackage = (name: string) => name === "effect" || name.startsWith("@effect/")

/** The required `effect` and `@effect/*` peers of a package, with their ranges. */
const effectPeersOf = (pkg: PackageJson): Array<[string, string]> =>
  Object.entries(pkg.peerDependencies ?? {}).filter(([name]) =>
    isEffectPackage(name) && pkg.peerDependenciesMeta?.[name]?.optional !== true
  )

/** The lowest version a `^x.y.z` range admits. */
const lowestOf = (range: string): string => {
  const match = /^\^(\d+\.\d+\.\d+)$/.exec(range)
  if (match?.[1] === undefined) throw new Error(`expected a ^x.y.z peer range, got ${range}`)
  return match[1]
}

/**
 * The Effect packages a consumer installs: the libraries' peers, then the peers those bring
 * (`@effect/ai` wants `@effect/rpc`). `lowest` pins the bottom of each range; otherwise each is asked
 * for by its range, so npm installs the newest releases the ranges admit (with strict peers, a set
 * that does not fit together fails the install).
 */
const effectPackages = (lowest: boolean): Record<string, string> => {
  const ranges = new Map<string, string>()
  for (const library of libraries) {
    for (const [name, range] of effectPeersOf(readPackage(join(repositoryRoot, "packages", library)))) {
      ranges.set(name, range)
    }
  }
  for (const name of [...ranges.keys()]) {
    for (const [peer, range] of effectPeersOf(readPackage(join(repositoryRoot, "node_modules", name)))) {
      if (!ranges.has(peer)) ranges.set(peer, range)
    }
  }
  return Object.fromEntries(
    [...ranges].map(([name, range]) => [
      name,
      lowest ? lowestOf(range) : range
    ])
  )
}

/** The environment of child processes: none of the npm settings of a surrounding `npm test`. */
const childEnvironment = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)))

const runIn = async (
  cwd: string,
  command: string,
  args: ReadonlyArray<string>,
  timeoutMs: number,
  env: Record<string, string> = {}
) => {
  try {
    return await run(command, [...args], {
      cwd,
      env: { ...childEnvironment(), ...env },
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024
    })
  } catch (error) {
    const { stderr, stdout } = error as { readonly stderr?: string; readonly stdout?: string }
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${stdout ?? ""}\n${stderr ?? ""}`)
  }
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm"

/** Every installed copy of `effect` under `directory/node_modules`. */
const effectCopies = (directory: string): Array<string> => {
  const copies: Array<string> = []
  const visit = (modules: string) => {
    if (!existsSync(modules)) return
    for (const entry of readdirSync(modules)) {
      const path = join(modules, entry)
      if (entry.startsWith("@")) {
        for (const scoped of readdirSync(path)) visit(join(path, scoped, "node_modules"))
        continue
      }
      if (entry === "effect") copies.push(path)
      visit(join(path, "node_modules"))
    }
  }
  visit(join(directory, "node_modules"))
  return copies
}

/** The commands of the README's "Use the libraries" section, as a reader copies them. */
const readmeCommands = (() => {
  const blocks = shellBlocks(
    readmeSection(readFileSync(join(repositoryRoot, "README.md"), "utf8"), "Use the libraries")
  )
  const pack = blocks.find((block) => block.includes("npm run pack"))
  const install = blocks.find((block) => block.startsWith("npm install") && block.includes(".tgz"))
  if (pack === undefined || install === undefined) {
    throw new Error(
      "the README's \"Use the libraries\" section shows no `npm run pack` or no `npm install` of tarballs"
    )
  }
  return { pack, install }
})()

/** Runs a README block as a reader's shell would: each line in turn, stopping at the first failure. */
const runShellBlock = (cwd: string, block: string, env: Record<string, string> = {}) =>
  runIn(cwd, "sh", ["-e", "-c", block], 360_000, env)

const tarballName = (pkg: PackageJson) => `${pkg.name.replace(/^@/, "").replace("/", "-")}-${pkg.version}.tgz`

let workDir: string
let tarballs: Array<string>

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "filings-consumer-"))
  // The README's own command, in the repository: it builds the workspace and packs into release/.
  await runShellBlock(repositoryRoot, readmeCommands.pack)
  const releaseDir = join(repositoryRoot, "release")
  const manifests = libraries.map((library) => readPackage(join(repositoryRoot, "packages", library)))
  assert.sameMembers(
    readdirSync(releaseDir).filter((file) => file.endsWith(".tgz")),
    manifests.map(tarballName),
    "every library is packed, @filings/domain included, and nothing else (not the server)"
  )
  assert.isTrue(readPackage(join(repositoryRoot, "packages/server")).private, "the server is not a library")
  tarballs = manifests.map((manifest) => join(releaseDir, tarballName(manifest)))
  for (const tarball of tarballs) {
    const { stdout } = await runIn(releaseDir, "tar", ["-tzf", tarball], 60_000)
    const files = stdout.trim().split("\n").map((path) => path.replace(/^package\//, ""))
    assert.includeMembers(files, ["LICENSE", "README.md", "package.json", "dist/index.js", "dist/index.d.ts"])
    assert.deepStrictEqual(files.filter((path) => /(^|\/)test\/|\.test\.|tsbuildinfo/.test(path)), [])
  }
}, 420_000)

afterAll(async () => {
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true })
})

/** The `@filings/*` packages installed in `project`, and any copy nested below another package. */
const filingsPackagesIn = (project: string) => {
  const scope = join(project, "node_modules/@filings")
  const installed = existsSync(scope) ? readdirSync(scope) : []
  const nested = installed.filter((name) => existsSync(join(scope, name, "node_modules/@filings")))
  return { installed, nested }
}

const smokeTitle =
  "parses, extracts, summarises and verifies a signature from plain JavaScript (needs ../shared/corpus)"

/**
 * Runs `smoke.mjs` in `project` on the corpus 10-K and checks what it found: the Promise doors of
 * the parser, the extractor, the feed summarizer and the webhook signer, on the project's `effect`.
 */
const runSmoke = async (project: string) => {
  const secret = "whsec_consumer-test-secret"
  const body = JSON.stringify({ event: "filing.new", data: { revenue: 391_035_000_000 } })
  const signature = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`
  const { stdout } = await runIn(project, process.execPath, ["smoke.mjs", tenK, secret, signature], 120_000)
  const result = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}")
  assert.strictEqual(result.effectVersion, readPackage(join(project, "node_modules/effect")).version)
  assert.strictEqual(result.form, "10-K")
  assert.includeMembers(result.sectionItems, ["1", "1A", "7", "8"])
  // Apple's FY2024 net sales and net income, as its 10-K reports them.
  assert.deepStrictEqual(
    [result.revenue.value, result.revenue.unit, result.revenue.period],
    [391_035_000_000, "USD", "FY 2024"]
  )
  assert.strictEqual(result.netIncome, 93_736_000_000)
  assert.strictEqual(result.summaryModel, "extractive")
  assert.isAbove(result.highlights, 0)
  assert.isTrue(result.citedChunks)
  // The script signed nothing itself: it verified the signature made here of the body it rebuilt.
  assert.strictEqual(result.signedBody, body)
  assert.isTrue(result.forgedRefused)
  assert.deepStrictEqual(result.unreadable, {
    isUnreadableDocument: true,
    tag: "UnreadableDocument",
    reason: "empty"
  })
}

describe("a project outside the workspace that follows the README", () => {
  let project: string

  beforeAll(async () => {
    project = join(workDir, "readme")
    await mkdir(project)
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "filings-readme-consumer", private: true, type: "module" }, null, 2)
    )
    await copyFile(join(fixtures, "smoke.mjs"), join(project, "smoke.mjs"))
    // The README's install line as written; FILINGS names the clone, as the README asks.
    await runShellBlock(project, readmeCommands.install, { FILINGS: repositoryRoot })
  }, 420_000)

  it("installs the libraries the line names, each @filings/* dependency from its tarball, and effect 3", () => {
    const { installed, nested } = filingsPackagesIn(project)
    assert.sameMembers(installed, ["domain", "extractor", "feed-summarizer", "filings-parser", "webhook-signer"])
    assert.deepStrictEqual(nested, [], "no library fetched a sibling of its own")
    for (const name of installed) {
      const pkg = readPackage(join(project, "node_modules/@filings", name))
      for (const [dependency, version] of Object.entries(pkg.dependencies ?? {})) {
        if (dependency.startsWith("@filings/")) {
          assert.strictEqual(readPackage(join(project, "node_modules", dependency)).version, version)
        }
      }
    }
    assert.deepStrictEqual(effectCopies(project), [join(project, "node_modules/effect")])
    assert.match(readPackage(join(project, "node_modules/effect")).version, /^3\.(?:2[2-9]|[3-9]\d)\.\d+$/)
  })

  it.skipIf(corpusMissing)(smokeTitle, () => runSmoke(project), 180_000)
})

const variants = [
  { name: "the lowest supported effect", lowest: true },
  { name: "the newest effect", lowest: false }
] as const

describe.each(variants)("a project outside the workspace with $name", ({ lowest }) => {
  const versions = effectPackages(lowest)
  let project: string
  let installedEffect: string

  beforeAll(async () => {
    project = join(workDir, lowest ? "lowest" : "newest")
    await mkdir(project)
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "filings-consumer", private: true, type: "module" }, null, 2)
    )
    for (const file of ["consumer.ts", "smoke.mjs", "tsconfig.nodenext.json", "tsconfig.bundler.json"]) {
      await copyFile(join(fixtures, file), join(project, file))
    }
    const typesNode = readPackage(join(repositoryRoot, "node_modules/@types/node")).version
    await runIn(project, npm, [
      "install",
      "--no-audit",
      "--no-fund",
      // Pinned versions may come from the cache; ranges ask the registry what is newest.
      ...(lowest ? ["--prefer-offline"] : ["--prefer-online"]),
      // A peer range that does not fit the others fails the install instead of warning.
      "--strict-peer-deps",
      ...tarballs,
      ...Object.entries(versions).map(([name, version]) => `${name}@${version}`),
      `@types/node@${typesNode}`
    ], 300_000)
  }, 360_000)

  it("installs one copy of effect, the project's own, and one of each library", () => {
    assert.deepStrictEqual(effectCopies(project), [join(project, "node_modules/effect")])
    assert.deepStrictEqual(filingsPackagesIn(project), { installed: [...libraries].sort(), nested: [] })
    installedEffect = readPackage(join(project, "node_modules/effect")).version
    assert.isFalse(existsSync(join(project, "node_modules/pdfjs-dist")), "pdfjs-dist is an optional peer")
    if (lowest) assert.strictEqual(installedEffect, "3.22.0")
    else assert.match(installedEffect, /^3\.(?:2[2-9]|[3-9]\d)\.\d+$/, "a 3.x release within the peer range")
  })

  it("type-checks a TypeScript consumer with moduleResolution nodenext", async () => {
    await runIn(project, process.execPath, [tsc, "-p", "tsconfig.nodenext.json"], 240_000)
  }, 300_000)

  it("type-checks a TypeScript consumer with moduleResolution bundler", async () => {
    await runIn(project, process.execPath, [tsc, "-p", "tsconfig.bundler.json"], 240_000)
  }, 300_000)

  it.skipIf(corpusMissing)(smokeTitle, () => runSmoke(project), 180_000)
})

if (corpusMissing) {
  describe("the consumer's plain JavaScript run", () => {
    it.skip(`skipped: the corpus 10-K ${tenK} is absent (../shared/corpus beside the repository)`, () => {})
  })
}
