/**
 * Extracts a filing's own numbers, tables, exhibits and signatures with the libraries alone.
 *
 *   node --import tsx examples/extract-filing.ts path/to/filing.htm
 */
import { Extractor } from "@filings/extractor"
import { Parser } from "@filings/filings-parser"
import { Console, Effect } from "effect"
import { readFile } from "node:fs/promises"
import { basename } from "node:path"

const path = process.argv[2] ?? "examples/filings/acme-8k-2024-11-05.txt"

const program = Effect.gen(function*() {
  const bytes = yield* Effect.promise(() => readFile(path))
  const parsed = yield* Parser.parse({ bytes, fileName: basename(path) })
  // A full submission's accession number; a document alone has none, and its exhibits no url.
  const extraction = yield* Extractor.extract({ bytes, parsed, publicationId: parsed.header?.accessionNumber })
  for (const [name, metric] of Object.entries(extraction.metrics)) {
    if (metric !== undefined) {
      yield* Console.log(`${name}: ${metric.value} ${metric.unit} (${metric.period}, ${metric.source})`)
    }
  }
  const statements = extraction.tables.filter((table) => table.tableType !== "other")
  yield* Console.log(`${extraction.tables.length} tables, ${statements.length} of them financial statements`)
  for (const exhibit of extraction.exhibits) yield* Console.log(`Exhibit ${exhibit.number}: ${exhibit.description}`)
  const signers = extraction.signatures?.signers.map((signer) => `${signer.name} (${signer.title})`) ?? []
  yield* Console.log(
    `Signed ${extraction.signatures?.signedDate ?? "(no date)"} by ${signers.join(", ") || "nobody found"}`
  )
})

Effect.runPromise(program.pipe(
  Effect.catchAll((error) => Console.error(`cannot read ${path}: ${error.message}`))
))
