/**
 * The events a running `filings serve` recorded, read over its admin API (`GET /admin/events`) as an
 * operator would.
 */
import { assert } from "@effect/vitest"
import { readFile } from "node:fs/promises"
import { join } from "node:path"

/** One recorded event, as `GET /admin/events` lists it. */
export interface LoggedEvent {
  readonly sequence: number
  readonly type: string
  readonly payload: { readonly event: string; readonly data: Record<string, unknown> }
}

/** The admin token a server on the embedded database in `dataDir` wrote to its `server.json`. */
export const adminTokenOf = async (dataDir: string): Promise<string> =>
  (JSON.parse(await readFile(join(dataDir, "server.json"), "utf8")) as { adminToken: string }).adminToken

/** The first 1,000 events the server at `url` recorded; asserts that it answered 200. */
export const loggedEvents = async (url: string, adminToken: string): Promise<ReadonlyArray<LoggedEvent>> => {
  const response = await fetch(`${url}/admin/events?limit=1000`, { headers: { authorization: `Bearer ${adminToken}` } })
  assert.strictEqual(response.status, 200)
  return ((await response.json()) as { events: ReadonlyArray<LoggedEvent> }).events
}
