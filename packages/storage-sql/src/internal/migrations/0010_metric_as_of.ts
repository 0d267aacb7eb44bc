/**
 * Migration 12: the date a balance is measured at, beside the metric's period. Every metric's
 * `period` is now the document's reporting period (`FY 2024`, `Q3 2024`); a balance's instant goes in
 * `as_of`. Rows stored before keep their date in `period` and no `as_of`: they are not rewritten,
 * readers present them with the document's period and that date as `as_of`.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
ALTER TABLE document_metrics ADD COLUMN as_of date;
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
