/**
 * Where the tests find the corpus of real filings, the one place that knows: `../shared/corpus`
 * beside the repository (see its CATALOGUE.md; never copied into the project), or the folder
 * `FILINGS_TEST_CORPUS_DIR` names. Every test that reads the corpus takes its location from here
 * and skips on `corpusMissing`; whether a missing corpus fails the run instead (in CI) is decided
 * once, by `requireCorpus`, which the vitest configuration runs before any test file.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

/** The corpus's usual place, as the tests and the documentation name it: relative to the repository. */
export const corpusLocation = "../shared/corpus"

const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url))

const corpusDirOf = (env: NodeJS.ProcessEnv): string => {
  const override = env.FILINGS_TEST_CORPUS_DIR
  return override !== undefined && override !== "" ? override : join(repositoryRoot, corpusLocation)
}

/** The corpus folder (absolute). */
export const corpusDir = corpusDirOf(process.env)

/** The corpus folder as a `file:` URL ending in `/`, to resolve paths inside it: `new URL("10-K/...", corpusUrl)`. */
export const corpusUrl = pathToFileURL(join(corpusDir, "/"))

/** True where the corpus folder is absent: the tests that read it skip (outside CI only, see `requireCorpus`). */
export const corpusMissing = !existsSync(corpusDir)

/** A file of the corpus by its path inside it (`10-K/aapl-10k-fy2024.htm`). */
export const corpusFile = (path: string): string => join(corpusDir, path)

/** `CI` as CI services set it (`true`, `1`): any value but empty, `0` or `false`. */
const isCi = (env: NodeJS.ProcessEnv): boolean => {
  const value = env.CI?.trim().toLowerCase()
  return value !== undefined && value !== "" && value !== "0" && value !== "false"
}

/**
 * What to do about the corpus before a test run: nothing where it is present; where it is absent,
 * fail in CI (`CI` set), where skipping would hide that the tests on real filings never ran, and
 * otherwise say that those tests are skipped. The message names the place relative to the
 * repository, and the folder looked at.
 */
export const corpusRequirement = (
  env: NodeJS.ProcessEnv
): { readonly outcome: "present" } | { readonly outcome: "fail" | "skip"; readonly message: string } => {
  const directory = corpusDirOf(env)
  if (existsSync(directory)) return { outcome: "present" }
  const looked = env.FILINGS_TEST_CORPUS_DIR !== undefined && env.FILINGS_TEST_CORPUS_DIR !== ""
    ? `FILINGS_TEST_CORPUS_DIR names ${directory}, which does not exist`
    : `looked at ${directory}`
  return isCi(env)
    ? {
      outcome: "fail",
      message: `The corpus of real filings is required in CI and is missing: put it at ${corpusLocation} ` +
        `beside the repository (${looked}).`
    }
    : {
      outcome: "skip",
      message: `The corpus of real filings is not at ${corpusLocation} beside the repository (${looked}): ` +
        `the tests on real filings are skipped. In CI (CI=true) a missing corpus fails the run.`
    }
}

/**
 * The vitest global setup: runs once before any test file, in the process that starts the run.
 * Throwing here ends the run with the message and a failing exit code.
 */
export const requireCorpus = (): void => {
  const requirement = corpusRequirement(process.env)
  if (requirement.outcome === "fail") throw new Error(requirement.message)
  if (requirement.outcome === "skip") console.warn(requirement.message)
}

export default requireCorpus
