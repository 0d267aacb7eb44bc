import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

// Tests import the workspace packages from their TypeScript sources, so a test run needs no build.
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url))

const alias = {
  "@filings/domain": source("./packages/domain/src/index.ts"),
  "@filings/storage/testing": source("./packages/storage/src/testing.ts"),
  "@filings/storage": source("./packages/storage/src/index.ts"),
  "@filings/storage-sql": source("./packages/storage-sql/src/index.ts"),
  "@filings/filings-parser": source("./packages/filings-parser/src/index.ts"),
  "@filings/server": source("./packages/server/src/index.ts")
}

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
