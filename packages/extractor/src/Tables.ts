/**
 * The tables of a filing, read from the parser's blocks: each with its section, a title (the
 * heading or short paragraph just before it), one header row (the block's header rows joined), its
 * rows, its unit, and a conservative type (income statement, balance sheet, cash flow, segment
 * revenue, other).
 *
 * @module
 */
import { ExtractedValues } from "@filings/domain"
import type { ParsedDocument } from "@filings/filings-parser"
import { readTables } from "./internal/tables/readTables.js"

/** The classification of a table (declared once, in `@filings/domain`). */
export const TableType = ExtractedValues.TableType
export type TableType = ExtractedValues.TableType

/**
 * A table with its section, title, header row, rows, unit and type: the one schema of
 * `@filings/domain`'s `ExtractedValues.Table`, whose encoded side is the API's snake_case.
 */
export const Table = ExtractedValues.Table
export type Table = ExtractedValues.Table

/** The tables of a document, and what was repaired to read them. */
export interface TablesResult {
  readonly tables: Array<Table>
  /** Which tables had rows shorter than the table, padded with empty cells: data, never a failure. */
  readonly warnings: Array<string>
}

/** All tables of a parsed document, classified; warnings say which rows were padded. */
export const extractTables = (document: ParsedDocument.ParsedDocument): TablesResult => readTables(document)
