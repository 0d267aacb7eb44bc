import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

// Tests import the workspace packages from their TypeScript sources, so a test run needs no build:
// `@filings/<package>` is the package's src/index.ts, `@filings/<package>/<Module>` its src/<Module>.ts.
const packages = fileURLToPath(new URL("./packages/", import.meta.url))
const alias = [
  { find: /^@filings\/([^/]+)$/, replacement: `${packages}$1/src/index.ts` },
  { find: /^@filings\/([^/]+)\/(.+)$/, replacement: `${packages}$1/src/$2.ts` }
]

/**
 * Runs before any test file of any project: where the corpus of real filings is absent, fails the run
 * in CI and says outside CI that the tests on it are skipped (test/support/corpus.ts).
 */
const globalSetup = ["test/support/corpus.ts"]

/** Test files that run after all the others, on their own. */
const alone = ["test/multiInstance.test.ts"]

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "packages",
          include: ["packages/*/test/**/*.test.ts"],
          globalSetup,
          testTimeout: 30_000,
          hookTimeout: 60_000
        }
      },
      {
        resolve: { alias },
        test: {
          name: "contract",
          include: ["test/**/*.test.ts"],
          exclude: alone,
          globalSetup,
          testTimeout: 60_000,
          hookTimeout: 120_000
        }
      },
      {
        resolve: { alias },
        test: {
          // Tests that measure what the regulator sees to the millisecond (at most 10 requests in any
          // second across three servers): they run last, after every other project, with the machine to
          // themselves (keep this list to one file, or to files that may share the machine).
          name: "alone",
          include: alone,
          sequence: { groupOrder: 1 },
          globalSetup,
          testTimeout: 60_000,
          hookTimeout: 120_000
        }
      }
    ]
  }
})
