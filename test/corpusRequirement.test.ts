/**
 * Where the corpus of real filings is absent, a run in CI (`CI=true`) fails, saying where the corpus
 * belongs (`../shared/corpus`, beside the repository); elsewhere the tests on it skip, saying so.
 * Checked on the rule itself and on real vitest runs of a test file that reads the corpus, with the
 * corpus pointed (`FILINGS_TEST_CORPUS_DIR`) at a folder that does not exist.
 */
import { assert, describe, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { corpusRequirement } from "./support/corpus.js"
import { repositoryRoot } from "./support/filings.js"

const run = promisify(execFile)

const absentCorpus = join(tmpdir(), "filings-no-corpus-here")
/** A quick test file with a describe on the corpus and tests that need none. */
const corpusTestFile = "packages/extractor/test/financialDataSchedule.test.ts"

/** The environment of a child vitest: this one's, without CI or vitest's own markers, plus `extra`. */
const childEnvironment = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== "CI" && !name.startsWith("VITEST") && !/^npm_/i.test(name))
  )
  return { ...env, FILINGS_TEST_CORPUS_DIR: absentCorpus, ...extra }
}

interface VitestRun {
  readonly exitCode: number
  readonly output: string
  readonly report: { readonly numPassedTests?: number; readonly numPendingTests?: number } | undefined
}

const runVitest = async (extra: Record<string, string>): Promise<VitestRun> => {
  const args = ["node_modules/vitest/vitest.mjs", "run", "--reporter=json", corpusTestFile]
  const options = { cwd: repositoryRoot, env: childEnvironment(extra), maxBuffer: 16 * 1024 * 1024, timeout: 120_000 }
  const parse = (stdout: string) => {
    try {
      return JSON.parse(stdout.slice(stdout.indexOf("{")))
    } catch {
      return undefined
    }
  }
  try {
    const { stderr, stdout } = await run(process.execPath, args, options)
    return { exitCode: 0, output: `${stdout}\n${stderr}`, report: parse(stdout) }
  } catch (error) {
    const failed = error as { readonly code?: number; readonly stdout?: string; readonly stderr?: string }
    return {
      exitCode: failed.code ?? 1,
      output: `${failed.stdout ?? ""}\n${failed.stderr ?? ""}`,
      report: parse(failed.stdout ?? "")
    }
  }
}

describe("the corpus requirement", () => {
  it("fails in CI where the corpus is absent, naming ../shared/corpus; skips elsewhere, saying so", () => {
    const inCi = corpusRequirement({ CI: "true", FILINGS_TEST_CORPUS_DIR: absentCorpus })
    assert.strictEqual(inCi.outcome, "fail")
    assert.include("message" in inCi ? inCi.message : "", "required in CI")
    assert.include("message" in inCi ? inCi.message : "", "../shared/corpus beside the repository")
    assert.include("message" in inCi ? inCi.message : "", absentCorpus)

    const outsideCi = corpusRequirement({ FILINGS_TEST_CORPUS_DIR: absentCorpus })
    assert.strictEqual(outsideCi.outcome, "skip")
    assert.include("message" in outsideCi ? outsideCi.message : "", "../shared/corpus")
    assert.include("message" in outsideCi ? outsideCi.message : "", "skipped")

    // CI services set CI=true or CI=1; CI=false or an empty CI is not CI.
    assert.strictEqual(corpusRequirement({ CI: "1", FILINGS_TEST_CORPUS_DIR: absentCorpus }).outcome, "fail")
    assert.strictEqual(corpusRequirement({ CI: "false", FILINGS_TEST_CORPUS_DIR: absentCorpus }).outcome, "skip")
    assert.strictEqual(corpusRequirement({ CI: "", FILINGS_TEST_CORPUS_DIR: absentCorpus }).outcome, "skip")
    // A corpus that is there is fine either way.
    assert.strictEqual(corpusRequirement({ CI: "true", FILINGS_TEST_CORPUS_DIR: repositoryRoot }).outcome, "present")
  })

  it("a vitest run with CI=true fails before any test, saying where the corpus should be", async () => {
    const result = await runVitest({ CI: "true" })
    assert.notStrictEqual(result.exitCode, 0)
    assert.include(
      result.output,
      "The corpus of real filings is required in CI and is missing: put it at ../shared/corpus beside the repository"
    )
    assert.strictEqual(result.report?.numPassedTests ?? 0, 0, "no test ran")
  }, 120_000)

  it("a vitest run outside CI skips the corpus tests, saying why, and runs the others", async () => {
    const result = await runVitest({})
    assert.strictEqual(result.exitCode, 0, result.output)
    assert.include(
      result.output,
      "The corpus of real filings is not at ../shared/corpus beside the repository"
    )
    assert.include(result.output, "the tests on real filings are skipped")
    assert.isAbove(result.report?.numPassedTests ?? 0, 0, "the tests without the corpus ran")
    assert.isAbove(result.report?.numPendingTests ?? 0, 0, "the corpus tests were skipped")
  }, 120_000)
})
