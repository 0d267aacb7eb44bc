/**
 * @filings/storage-sql: the SQL foundation of the Filings storage ports, one schema and one set of
 * statements on embedded PGlite (the default) and on PostgreSQL.
 */
export * as Database from "./Database.js"
export * as Migrations from "./Migrations.js"
export * as PgliteClient from "./PgliteClient.js"
export * as SqlStorage from "./SqlStorage.js"
export * as TestDatabase from "./TestDatabase.js"
