/**
 * The timeline cursor on its own: what it reads back, and every cursor it must refuse before a
 * query is sent (a position the database cannot take would otherwise fail as an outage).
 */
import { assert, describe, it } from "@effect/vitest"
import { Either } from "effect"
import { decode, encode, fingerprint } from "../src/timeline/TimelineCursor.js"

const filters = {
  cik: "0000999001",
  types: ["filing", "upcoming_call"] as const,
  startDate: "2025-01-01",
  endDate: "2026-11-04"
}
const forged = (position: unknown) => Buffer.from(JSON.stringify(position)).toString("base64url")

describe("TimelineCursor", () => {
  it("reads back the position it wrote, for the same filters with types in any order or repeated", () => {
    const key = { filingDate: "2026-01-30", publicationId: "earnings_call.upcoming:ACME:2026-01-31T01:00:00.000Z" }
    const cursor = encode(key, fingerprint(filters))
    assert.match(cursor, /^[A-Za-z0-9_-]+$/)
    const same = { ...filters, types: ["upcoming_call", "filing", "filing"] as const }
    assert.deepStrictEqual(decode(cursor, fingerprint(same)), Either.right(key))
  })

  it("refuses a cursor sent for another company or with other filters", () => {
    const cursor = encode({ filingDate: "2026-01-30", publicationId: "a" }, fingerprint(filters))
    for (
      const other of [
        { ...filters, cik: "0000999002" },
        { ...filters, types: undefined },
        { ...filters, types: ["filing"] as const },
        { ...filters, startDate: undefined },
        { ...filters, endDate: "2026-11-05" }
      ]
    ) {
      assert.deepStrictEqual(decode(cursor, fingerprint(other)), Either.left("other-filters"), JSON.stringify(other))
    }
  })

  it("refuses what it did not write: garbage, cut cursors, forged positions the database cannot take", () => {
    const print = fingerprint(filters)
    const cursor = encode({ filingDate: "2026-01-30", publicationId: "a" }, print)
    for (
      const garbled of [
        "",
        "not a cursor",
        `${cursor}=`,
        `${cursor}!`,
        cursor.slice(0, -2),
        forged({ d: "2026-02-30", id: "a", f: print }),
        forged({ d: "2026-01-30T00:00:00Z", id: "a", f: print }),
        forged({ d: "2026-01-30", id: "a\u0000b", f: print }),
        forged({ d: "2026-01-30", id: "x".repeat(121), f: print }),
        forged({ d: "2026-01-30", id: 7, f: print }),
        forged({ d: "2026-01-30", f: print }),
        forged(["2026-01-30", "a", print])
      ]
    ) {
      assert.deepStrictEqual(decode(garbled, print), Either.left("malformed"), garbled)
    }
    // A forged position inside the bounds is only a place in the client's own query.
    assert.deepStrictEqual(
      decode(forged({ d: "1999-12-31", id: "zz", f: print }), print),
      Either.right({ filingDate: "1999-12-31", publicationId: "zz" })
    )
  })
})
