/**
 * Reading SQL rows as the stores' shapes: the SQL storage's `rowDecoder` (each field checked once)
 * against the shape's own `Schema` decoder (what rows were read with before it, which checks every
 * field on both sides of a `fromKey` renaming), on the rows the list endpoints, the feed and the
 * webhook dispatcher read most. Both run in this process, in alternate rounds, on the same rows;
 * the report gives microseconds per row for each and their ratio.
 *
 *   node --import tsx bench/rows.ts [--rows 10000] [--rounds 15]
 */
import { Either, Schema } from "effect"
import { parseArgs } from "node:util"
import { rowDecoder } from "../packages/storage-sql/src/internal/sqlRows.js"
import { sampleRows } from "../packages/storage-sql/test/sampleRows.js"

const { values: argv } = parseArgs({
  options: { rows: { type: "string", default: "10000" }, rounds: { type: "string", default: "15" } },
  strict: true
})
const rowCount = Number(argv.rows)
const rounds = Number(argv.rounds)

const withoutNulls = (row: object): object =>
  Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null))

/** Milliseconds to decode every row, failing loudly on a row that does not decode. */
const timeAll = (rows: ReadonlyArray<object>, decode: (row: object) => Either.Either<unknown, unknown>): number => {
  const start = performance.now()
  for (const row of rows) {
    if (Either.isLeft(decode(row))) throw new Error("a benchmark row did not decode")
  }
  return performance.now() - start
}

const median = (values: ReadonlyArray<number>): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0

const lines = [
  `Rows per round: ${
    rowCount.toLocaleString("en-US")
  }; rounds: ${rounds} (after 2 unmeasured), alternating; median µs per row.`,
  "",
  "| Row | `Schema` decoder µs/row | `rowDecoder` µs/row | rowDecoder / Schema |",
  "|---|--:|--:|--:|"
]
for (const { name, row, shape } of sampleRows) {
  // A copy per row, as a result set holds: no decoder sees one object twice in a round.
  const rows = Array.from({ length: rowCount }, () => ({ ...row }))
  const decodeShape = Schema.decodeUnknownEither(shape, { errors: "first" })
  const bySchema = (row: object) => decodeShape(withoutNulls(row))
  const byRow = rowDecoder(shape)
  const schemaTimes: Array<number> = []
  const rowTimes: Array<number> = []
  for (let round = 0; round < rounds + 2; round++) {
    const schemaTime = timeAll(rows, bySchema)
    const rowTime = timeAll(rows, byRow)
    if (round >= 2) {
      schemaTimes.push(schemaTime)
      rowTimes.push(rowTime)
    }
  }
  const perRow = (ms: number) => (ms * 1000) / rowCount
  const [schemaMicros, rowMicros] = [perRow(median(schemaTimes)), perRow(median(rowTimes))]
  lines.push(
    `| ${name} | ${schemaMicros.toFixed(2)} | ${rowMicros.toFixed(2)} | ${(rowMicros / schemaMicros).toFixed(2)} |`
  )
}
console.log(lines.join("\n"))
