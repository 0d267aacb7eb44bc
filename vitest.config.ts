import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

// Tests import the workspace packages from their TypeScript sources, so a test run needs no build:
// `@filings/<package>` is the package's src/index.ts, `@filings/<package>/<Module>` its src/<Module>.ts.
const packages = fileURLToPath(new URL("./packages/", import.meta.url))
const alias = [
  { find: /^@filings\/([^/]+)$/, replacement: `${packages}$1/src/index.ts` },
  { find: /^@filings\/([^/]+)\/(.+)$/, replacement: `${packages}$1/src/$2.ts` }
]

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "packages",
          include: ["packages/*/test/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000
        }
      },
      {
        resolve: { alias },
        test: {
          name: "contract",
          include: ["test/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000
        }
      }
    ]
  }
})
