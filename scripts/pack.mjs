#!/usr/bin/env node
// Builds the workspace and packs every library into release/, one npm tarball each
// (filings-<package>-<version>.tgz): how the libraries install until they are on the npm registry.
// The libraries are the workspaces not marked private (the server is an application). They depend
// on each other by exact version, so a project installs a library's tarball together with those of
// the @filings/* packages it depends on; this script checks that each of those is packed too.
// Tarballs of an earlier run are removed first, so release/ holds exactly one version.
import { spawnSync } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"

const destination = "release"
const fail = (message) => {
  console.error(`pack: ${message}`)
  process.exit(1)
}
const run = (command, args) => {
  const result = spawnSync(command, args, { stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" })
  if (result.status !== 0) fail(`${command} ${args.join(" ")} failed`)
  return result.stdout
}

const root = JSON.parse(readFileSync("package.json", "utf8"))
const libraries = root.workspaces
  .map((directory) => ({ directory, manifest: JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) }))
  .filter(({ manifest }) => manifest.private !== true)
const packed = new Map(libraries.map(({ manifest }) => [manifest.name, manifest.version]))
for (const { manifest } of libraries) {
  for (const [name, version] of Object.entries(manifest.dependencies ?? {})) {
    if (!name.startsWith("@filings/")) continue
    if (packed.get(name) !== version) fail(`${manifest.name} depends on ${name}@${version}, which is not packed`)
  }
}

run(process.execPath, ["node_modules/typescript/bin/tsc", "-b"])
mkdirSync(destination, { recursive: true })
for (const file of readdirSync(destination)) {
  if (/^filings-.*\.tgz$/.test(file)) rmSync(join(destination, file))
}
const npm = process.platform === "win32" ? "npm.cmd" : "npm"
// The build ran above; the packages' own lifecycle scripts have nothing left to do.
const reports = JSON.parse(run(npm, [
  "pack",
  "--json",
  "--ignore-scripts",
  "--pack-destination",
  destination,
  ...libraries.flatMap(({ directory }) => ["--workspace", directory])
]))
for (const report of reports) console.log(join(destination, report.filename))
