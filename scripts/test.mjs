#!/usr/bin/env node
// Runs the whole test suite with vitest and ends with the plain summary line
// "N passed, N failed, N skipped", which CI and people read the same way.
// Extra arguments go to vitest (for example a file filter).
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const reportDir = mkdtempSync(join(tmpdir(), "filings-test-"))
const reportFile = join(reportDir, "report.json")
const run = spawnSync(
  process.execPath,
  [
    "node_modules/vitest/vitest.mjs",
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${reportFile}`,
    ...process.argv.slice(2)
  ],
  { stdio: "inherit" }
)

let summary = "0 passed, 1 failed, 0 skipped"
try {
  const report = JSON.parse(readFileSync(reportFile, "utf8"))
  const skipped = report.numPendingTests + report.numTodoTests
  // A file that fails to load counts as a failure even though none of its tests ran.
  const brokenFiles = report.testResults.filter((file) =>
    file.status === "failed" && file.assertionResults.length === 0
  )
  summary = `${report.numPassedTests} passed, ${report.numFailedTests + brokenFiles.length} failed, ${skipped} skipped`
} catch {
  // no report: vitest itself failed before running anything; the default summary says so
}
rmSync(reportDir, { recursive: true, force: true })
console.log(summary)
process.exit(run.status ?? 1)
