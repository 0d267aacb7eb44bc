#!/usr/bin/env node
// Checks the deployment files. With a Docker daemon: builds the image and validates compose.yaml
// with Docker's own tools. Without one (CI machines here have the client only): lints the
// Dockerfile (dockerfile-utils, the linter behind the Docker language server, every warning an
// error; plus this project's rules: pinned base images, a non-root user, a health check) and
// validates compose.yaml with docker-compose. Exits non-zero on the first problem.
import { validate } from "dockerfile-utils"
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"

const run = (command, args) => spawnSync(command, args, { stdio: "inherit" }).status === 0
const quiet = (command, args) => spawnSync(command, args, { stdio: "ignore" }).status === 0
const fail = (message) => {
  console.error(`check-deployment: ${message}`)
  process.exit(1)
}

if (quiet("docker", ["info"])) {
  if (!run("docker", ["build", "--quiet", "--tag", "filings:check", "."])) fail("docker build failed")
  const composeValid = quiet("docker", ["compose", "version"])
    ? run("docker", ["compose", "-f", "compose.yaml", "config", "--quiet"])
    : run("docker-compose", ["-f", "compose.yaml", "config", "--quiet"])
  if (!composeValid) fail("compose.yaml is not valid")
  console.log("check-deployment: image built, compose.yaml valid")
  process.exit(0)
}

const dockerfile = readFileSync("Dockerfile", "utf8")
const problems = validate(dockerfile).map((diagnostic) =>
  `line ${diagnostic.range.start.line + 1}: ${diagnostic.message}`
)
const instructions = dockerfile.split("\n").map((line) => line.trim()).filter((line) =>
  line !== "" && !line.startsWith("#")
)
for (const from of instructions.filter((line) => /^FROM\s/i.test(line))) {
  const image = from.split(/\s+/)[1] ?? ""
  if (!/:[\w.-]+$/.test(image) || image.endsWith(":latest")) {
    problems.push(`base image not pinned to a version: ${from}`)
  }
}
const finalStage = instructions.slice(instructions.findLastIndex((line) => /^FROM\s/i.test(line)))
const lastUser = finalStage.filter((line) => /^USER\s/i.test(line)).at(-1)
if (lastUser === undefined || /^USER\s+(root|0)(\s|:|$)/i.test(lastUser)) {
  problems.push("the final stage does not run as a non-root user")
}
if (!finalStage.some((line) => /^HEALTHCHECK\s/i.test(line))) problems.push("the final stage has no HEALTHCHECK")
if (problems.length > 0) fail(`Dockerfile:\n  ${problems.join("\n  ")}`)

if (!quiet("docker-compose", ["version"])) {
  fail("docker-compose is needed to validate compose.yaml (Debian: apt-get install docker-compose)")
}
if (!run("docker-compose", ["-f", "compose.yaml", "config", "--quiet"])) fail("compose.yaml is not valid")
console.log("check-deployment: no Docker daemon here; Dockerfile linted, compose.yaml validated with docker-compose")
