/**
 * What `filings ingest` works through: the files named on the command line (a folder stands for the
 * files in it, by name) and the rows of a manifest, a CSV file with the columns `file, ticker, cik,
 * form, accession, filing_date` for filings that do not say all of it themselves (a bare `.htm`
 * document says neither its accession number nor its filing date). A manifest is checked whole
 * before anything is stored, and every missing or invalid field is reported at once.
 */
import { FileSystem } from "@effect/platform"
import { Admin } from "@filings/domain"
import { Effect, Either, Schema } from "effect"
import { basename, dirname, isAbsolute, join } from "node:path"
import { fieldsOf } from "../CsvLine.js"
import { CliFailure, issuesByField } from "./CliFailure.js"

/** One file to ingest, with the metadata its manifest row gives (none for a file named directly). */
export interface BatchEntry {
  readonly file: string
  readonly metadata: Admin.IngestMetadata
}

/** The files of `folder` to ingest: regular files, hidden ones and the server's own left out, by name. */
const filesIn = (fs: FileSystem.FileSystem, folder: string) =>
  Effect.gen(function*() {
    const names = yield* fs.readDirectory(folder)
    const files: Array<string> = []
    for (const name of [...names].sort()) {
      if (name.startsWith(".")) continue
      const info = yield* fs.stat(join(folder, name))
      if (info.type === "File") files.push(join(folder, name))
    }
    return files
  })

/** The paths given on the command line, each folder replaced by its files. */
export const expandPaths = (paths: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const files: Array<string> = []
    for (const path of paths) {
      const info = yield* fs.stat(path).pipe(
        Effect.mapError(() => new CliFailure({ message: `${path}: no such file or folder` }))
      )
      if (info.type !== "Directory") files.push(path)
      else {
        const inFolder = yield* filesIn(fs, path).pipe(
          Effect.mapError((error) => new CliFailure({ message: `cannot read the folder ${path}: ${error.message}` }))
        )
        if (inFolder.length === 0) return yield* new CliFailure({ message: `the folder ${path} holds no files` })
        files.push(...inFolder)
      }
    }
    return files
  })

export const manifestColumns = ["file", "ticker", "cik", "form", "accession", "filing_date"] as const

/** A file that says its accession number and filing date itself: a full EDGAR submission. */
const isSubmission = (file: string) => /\.(?:txt|nc)$/i.test(file)

const decodeMetadata = Schema.decodeUnknownEither(Admin.IngestMetadata, { errors: "all" })

/**
 * Reads the manifest at `path`. Files are named relative to the manifest's folder. Every row needs
 * its file; a row whose file is no full submission (`.txt`) needs its accession and filing date as
 * well; every value given must be valid. All the problems are reported in one failure.
 */
export const readManifest = (path: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(path).pipe(
      Effect.mapError((error) => new CliFailure({ message: `cannot read the manifest ${path}: ${error.message}` }))
    )
    const lines = text.split(/\r?\n/).map((line, index) => ({ number: index + 1, line }))
      .filter(({ line }) => line.trim() !== "")
    const header = lines[0] === undefined ? [] : fieldsOf(lines[0].line).map((cell) => cell.toLowerCase())
    const unknown = header.filter((column) => !(manifestColumns as ReadonlyArray<string>).includes(column))
    if (!header.includes("file") || unknown.length > 0) {
      return yield* new CliFailure({
        message: `${basename(path)}: the first line must name the columns, from ${manifestColumns.join(", ")} ` +
          `(file is required)${unknown.length > 0 ? `; unknown: ${unknown.join(", ")}` : ""}`
      })
    }
    const problems: Array<string> = []
    const entries: Array<BatchEntry> = []
    for (const { line, number } of lines.slice(1)) {
      const cells = fieldsOf(line)
      const row = Object.fromEntries(
        header.flatMap((column, index) => {
          const value = cells[index] ?? ""
          return value === "" ? [] : [[column, value]]
        })
      ) as Partial<Record<(typeof manifestColumns)[number], string>>
      const missing = [
        ...(row.file === undefined ? ["file"] : []),
        ...(row.file !== undefined && !isSubmission(row.file)
          ? (["accession", "filing_date"] as const).filter((column) => row[column] === undefined)
          : [])
      ]
      const rowProblems = missing.map((column) => `${column} is missing`)
      const { file, ...fields } = row
      const decoded = decodeMetadata(fields)
      if (Either.isLeft(decoded)) {
        rowProblems.push(
          ...issuesByField(decoded.left).map(({ field, message }) => `${field ?? "row"} ${message}`)
        )
      }
      if (rowProblems.length > 0 || file === undefined || Either.isLeft(decoded)) {
        problems.push(`line ${number}: ${rowProblems.join("; ")}`)
        continue
      }
      entries.push({ file: isAbsolute(file) ? file : join(dirname(path), file), metadata: decoded.right })
    }
    if (problems.length > 0) {
      return yield* new CliFailure({
        message: `${basename(path)} is incomplete, nothing was stored:\n  ${problems.join("\n  ")}`
      })
    }
    if (entries.length === 0) return yield* new CliFailure({ message: `${basename(path)} names no files` })
    return entries
  })
