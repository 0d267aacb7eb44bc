import { describe } from "@effect/vitest"
import { conformance } from "@filings/storage/testing"
import { Layer, Redacted } from "effect"
import { adminUrl, adminUrlVariable } from "../../../test/support/adminUrl.js"
import { SqlStorage, TestDatabase } from "../src/index.js"

// The exported storage conformance suite, on a fresh in-memory PGlite and on a fresh database of
// a real PostgreSQL server (created for this run and dropped after it).
conformance("SQL on PGlite", SqlStorage.layer.pipe(Layer.provide(TestDatabase.layerPglite())))

if (adminUrl === undefined) {
  describe.skip(`storage conformance: SQL on PostgreSQL (set ${adminUrlVariable} to run it)`, () => {})
} else {
  conformance(
    "SQL on PostgreSQL",
    SqlStorage.layer.pipe(Layer.provide(TestDatabase.layerPostgres(Redacted.make(adminUrl))))
  )
}
