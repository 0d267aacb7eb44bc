/**
 * The tables of a filing, read from the parser's blocks: each with its section, a title (the
 * heading or short paragraph just before it), one header row, its rows, its unit, and a
 * conservative type (income statement, balance sheet, cash flow, segment revenue, other).
 */
import type { ParsedDocument } from "@filings/filings-parser"
import { Schema } from "effect"
import { readTables } from "./internal/tables/readTables.js"

export const TableType = Schema.Literal("income_statement", "balance_sheet", "cash_flow", "segment_revenue", "other")
export type TableType = typeof TableType.Type

export const Table = Schema.Struct({
  /** `t001`, `t002`, ... in body order; the same document always gives the same ids. */
  id: Schema.String,
  /** The heading or short caption just before the table, else the nearest heading, else the section. */
  title: Schema.String,
  /** The name of the section the table sits in; "" for text outside every section (the cover page). */
  section: Schema.String,
  /** One label per column; a multi-row header is joined (`Three Months Ended March 29, 2025`). */
  headers: Schema.Array(Schema.String),
  /** Body rows, each as wide as the headers (short rows are padded, with a warning). */
  rows: Schema.Array(Schema.Array(Schema.String)),
  /** `USD millions`, `USD thousands`, `USD` (amounts with `$`, no scale), `shares`, or "" when unknown. */
  unit: Schema.String,
  /** The unit statement as written when it has exceptions: `In millions, except per-share amounts`. */
  format: Schema.optional(Schema.String),
  tableType: TableType
})
export type Table = typeof Table.Type

export interface TablesResult {
  readonly tables: Array<Table>
  readonly warnings: Array<string>
}

/** All tables of a parsed document, classified; warnings say which rows were padded. */
export const extractTables = (document: ParsedDocument.ParsedDocument): TablesResult => readTables(document)
