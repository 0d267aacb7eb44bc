/**
 * A server of a test suite's own, started and stopped by the suite's hooks: the setup most
 * black-box tests of the HTTP API share. Apart from `filings.ts`, which benchmarks import too.
 */
import { afterAll, beforeAll } from "vitest"
import { adminTokenOf } from "./adminEvents.js"
import { createKey, type RunningServer, startServer, temporaryDataDir } from "./filings.js"

/** What `serverForSuite` started: read its fields inside tests, once `beforeAll` has run. */
export interface SuiteServer {
  readonly server: RunningServer
  /** An API key with the rate limit asked for. */
  readonly key: string
  /** The operator token the server wrote to `server.json`, for `/admin`. */
  readonly adminToken: string
}

/**
 * A server of the suite's own on a fresh data directory, with an API key named `keyName`: started
 * in `beforeAll`, stopped and removed in `afterAll` of the describe block (or file) it is called in.
 */
export const serverForSuite = (keyName: string, options: { readonly rateLimit?: number } = {}): SuiteServer => {
  let started: SuiteServer | undefined
  let removeDataDir: (() => Promise<void>) | undefined
  beforeAll(async () => {
    const { dataDir, remove } = await temporaryDataDir()
    removeDataDir = remove
    const key = await createKey({ dataDir }, { name: keyName, ...options })
    const server = await startServer({ dataDir })
    started = { server, key, adminToken: await adminTokenOf(dataDir) }
  }, 90_000)
  afterAll(async () => {
    await started?.server.stop()
    await removeDataDir?.()
  })
  const get = (): SuiteServer => {
    if (started === undefined) throw new Error("the suite's server is read before beforeAll started it")
    return started
  }
  return {
    get server() {
      return get().server
    },
    get key() {
      return get().key
    },
    get adminToken() {
      return get().adminToken
    }
  }
}
