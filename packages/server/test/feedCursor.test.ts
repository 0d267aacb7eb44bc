/**
 * The feed cursor on its own: what it reads back, and every cursor it must refuse before a query
 * is sent (a position the database cannot take would otherwise fail as an outage).
 */
import { assert, describe, it } from "@effect/vitest"
import { Either } from "effect"
import { decode, encode, fingerprint } from "../src/feed/FeedCursor.js"

const filters = { tickers: ["ACME", "BETA"], doc_types: ["8-K"], end_date: "2026-11-04T00:00:00Z" }
const forged = (position: unknown) => Buffer.from(JSON.stringify(position)).toString("base64url")

describe("FeedCursor", () => {
  it("reads back the position it wrote, for the same filters in any order or form", () => {
    const key = { publishedAtMillis: Date.parse("2026-11-03T21:05:00.000Z"), id: "0000999201-26-000001-ex99.1" }
    const cursor = encode(key, fingerprint(filters))
    assert.match(cursor, /^[A-Za-z0-9_-]+$/)
    const same = {
      tickers: ["BETA", "ACME", "ACME"],
      doc_types: ["8-K"],
      end_date: "2026-11-04T00:00:00.000Z"
    }
    assert.deepStrictEqual(decode(cursor, fingerprint(same)), Either.right(key))
  })

  it("refuses a cursor sent with other filters", () => {
    const cursor = encode({ publishedAtMillis: 0, id: "a" }, fingerprint(filters))
    for (
      const other of [
        { ...filters, tickers: ["ACME"] },
        { ...filters, doc_types: undefined },
        { ...filters, doc_types: ["8-K", "NEWS"] },
        { ...filters, end_date: "2026-11-04" },
        { ...filters, start_date: "2026-01-01" }
      ]
    ) {
      assert.deepStrictEqual(decode(cursor, fingerprint(other)), Either.left("other-filters"), JSON.stringify(other))
    }
  })

  it("refuses what it did not write: garbage, cut cursors, forged positions the database cannot take", () => {
    const print = fingerprint(filters)
    const cursor = encode({ publishedAtMillis: 0, id: "a" }, print)
    for (
      const garbled of [
        "",
        "not a cursor",
        `${cursor}=`,
        `${cursor}!`,
        cursor.slice(0, -2),
        forged({ t: 0.5, id: "a", f: print }),
        forged({ t: 1e300, id: "a", f: print }),
        forged({ t: 0, id: "a\u0000b", f: print }),
        forged({ t: 0, id: 7, f: print }),
        forged({ t: 0, f: print }),
        forged([0, "a", print])
      ]
    ) {
      assert.deepStrictEqual(decode(garbled, print), Either.left("malformed"), garbled)
    }
    // A forged position inside the bounds is only a place in the client's own query.
    assert.deepStrictEqual(
      decode(forged({ t: 5, id: "zz", f: print }), print),
      Either.right({ publishedAtMillis: 5, id: "zz" })
    )
  })
})
