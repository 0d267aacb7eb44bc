/**
 * Bundles the parser, the extractor and the webhook signer for the browser with esbuild, the way a
 * web app would (platform `browser`, ES modules with code splitting, nothing marked external, no
 * Node polyfills), and serves the bundle with a page on 127.0.0.1 for headless Chromium.
 *
 * The packages are bundled from their TypeScript sources, as the tests import them (see
 * `vitest.config.ts`), so the bundle is of the code under test, not of a stale build.
 */
import * as esbuild from "esbuild"
import { readFile } from "node:fs/promises"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { basename, join } from "node:path"
import { fileURLToPath } from "node:url"

/** The repository root: esbuild's working directory, so the metafile's inputs are relative to it. */
export const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url))

/** The libraries that promise to run in a browser, by the name of their bundle. */
export const libraries = {
  "filings-parser": "packages/filings-parser/src/index.ts",
  "extractor": "packages/extractor/src/index.ts",
  "webhook-signer": "packages/webhook-signer/src/index.ts"
} as const
export type LibraryName = keyof typeof libraries

/** The test's own entries: the page's scenario and the Web Worker that parses. */
const testEntries = {
  scenario: "test/support/browserScenario.ts",
  worker: "test/support/browserWorker.ts"
} as const

export type BundleName = LibraryName | keyof typeof testEntries

/** `@filings/<package>` and `@filings/<package>/<Module>` to the package's sources, as in vitest. */
const workspaceSources: esbuild.Plugin = {
  name: "workspace-sources",
  setup(build) {
    build.onResolve({ filter: /^@filings\// }, ({ path }) => {
      const [, name, module] = /^@filings\/([^/]+)(?:\/(.+))?$/.exec(path) ?? []
      return {
        path: join(repositoryRoot, "packages", name!, "src", module === undefined ? "index.ts" : `${module}.ts`)
      }
    })
  }
}

export interface BrowserBundle {
  readonly metafile: esbuild.Metafile
  /** The files written, by name (`filings-parser.js`, `chunk-<hash>.js`). */
  readonly files: ReadonlyMap<string, Uint8Array>
}

/** Builds every library and the test's entries into one bundle with shared chunks, in memory. */
export const bundleForBrowser = async (): Promise<BrowserBundle> => {
  const result = await esbuild.build({
    absWorkingDir: repositoryRoot,
    entryPoints: { ...libraries, ...testEntries },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    outdir: "browser-bundle",
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins: [workspaceSources]
  })
  return {
    metafile: result.metafile,
    files: new Map(result.outputFiles.map((file) => [basename(file.path), file.contents]))
  }
}

/** The output file of a bundle (`browser-bundle/filings-parser.js`). */
export const outputOf = (metafile: esbuild.Metafile, name: BundleName): string => {
  const path = `browser-bundle/${name}.js`
  if (metafile.outputs[path] === undefined) throw new Error(`no output ${path} in the bundle`)
  return path
}

/**
 * What loading one bundle brings in: the output files reached by static imports (a dynamic import,
 * taken only when its code runs, is not followed), the imports left to the runtime, and the source
 * files bundled into them.
 */
export const staticClosure = (metafile: esbuild.Metafile, name: BundleName) => {
  const outputs = new Set<string>()
  const unbundledImports: Array<string> = []
  const pending = [outputOf(metafile, name)]
  while (pending.length > 0) {
    const output = pending.pop()!
    if (outputs.has(output)) continue
    outputs.add(output)
    for (const imported of metafile.outputs[output]?.imports ?? []) {
      if (imported.external) unbundledImports.push(`${imported.kind} ${imported.path}`)
      else if (imported.kind === "import-statement") pending.push(imported.path)
    }
  }
  const inputs = [...outputs].flatMap((output) => Object.keys(metafile.outputs[output]?.inputs ?? {}))
  return { outputs: [...outputs], unbundledImports, inputs: [...new Set(inputs)].sort() }
}

/** The npm packages among bundled inputs (`effect`, `@effect/platform`). */
export const packagesOf = (inputs: ReadonlyArray<string>): Array<string> =>
  [...new Set(inputs.flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? []))].sort()

/**
 * Uses of Node's modules and globals in a source file, comments left out: `node:` imports,
 * `require(`, `Buffer`, `process.` and `__dirname`/`__filename`.
 */
export const nodeApisIn = async (input: string): Promise<Array<string>> => {
  const source = await readFile(join(repositoryRoot, input), "utf8")
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1")
  return [...code.matchAll(/["']node:[\w/]+["']|\brequire\(|\bBuffer\b|\bprocess\.|\b__(?:dirname|filename)\b/g)]
    .map((match) => match[0])
}

export interface ServedFile {
  readonly contentType: string
  readonly body: Uint8Array | string
}

export interface LocalServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string
  readonly close: () => Promise<void>
}

/** Serves `files` by path (`/index.html`) on 127.0.0.1 and a free port; anything else is 404. */
export const serveLocally = async (files: ReadonlyMap<string, ServedFile>): Promise<LocalServer> => {
  const server = createServer((request, response) => {
    const file = files.get(new URL(request.url ?? "/", "http://127.0.0.1").pathname)
    if (file === undefined) {
      response.writeHead(404).end()
      return
    }
    response.writeHead(200, { "content-type": file.contentType, "cache-control": "no-store" }).end(file.body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
