/**
 * Loading the build of a checkout of this repository (this one, or another commit's in a worktree)
 * from its `dist/` by file URL, so that two builds can be measured side by side in one process,
 * each with the copy of Effect its own packages resolve.
 */
import type * as EffectPackage from "effect"
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"

/** Imports a built module by its path, or fails saying the checkout has to be built first. */
export const importBuilt = async <A>(file: string): Promise<A> => {
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npx tsc -b\` in that checkout first`)
  return (await import(pathToFileURL(file).href)) as A
}

/** Imports the Effect that the package `packages/<packageDir>` of the checkout at `root` resolves. */
export const importEffectOf = async (root: string, packageDir: string): Promise<typeof EffectPackage> => {
  const effectManifest = createRequire(join(root, "packages", packageDir, "package.json")).resolve(
    "effect/package.json"
  )
  const manifest = JSON.parse(readFileSync(effectManifest, "utf8")) as { exports: { ".": { import: string } } }
  return importBuilt<typeof EffectPackage>(join(dirname(effectManifest), manifest.exports["."].import))
}

/** The commit a checkout is at, marked when its packages (what is measured) have uncommitted changes. */
export const describeCommit = (root: string): string => {
  try {
    const git = (...args: Array<string>) => execFileSync("git", ["-C", root, ...args], { encoding: "utf8" }).trim()
    const commit = git("rev-parse", "--short", "HEAD")
    return git("status", "--porcelain", "--untracked-files=no", "--", "packages") === ""
      ? commit
      : `${commit} + uncommitted changes`
  } catch {
    return "unknown commit"
  }
}
