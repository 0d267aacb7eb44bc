/**
 * `filings extract FILE`: the extractor on its own (no server, no database): the filing's metrics
 * from its XBRL, its classified tables, exhibit references and signatures, as JSON.
 */
import { Args, Command, Options } from "@effect/cli"
import { ExtractedValues } from "@filings/domain"
import { Extractor } from "@filings/extractor"
import { Effect, Option, Schema } from "effect"
import { basename } from "node:path"
import { CliFailure } from "./CliFailure.js"
import * as Output from "./Output.js"
import { formOption, readAndParse } from "./ReadFiling.js"
import { jsonOption } from "./SharedOptions.js"

const fieldNames = ["metrics", "tables", "exhibits", "signatures"] as const
type Field = typeof fieldNames[number]

const parseFields = (text: string): Effect.Effect<ReadonlyArray<Field>, CliFailure> => {
  const asked = text.split(",").map((field) => field.trim()).filter((field) => field !== "")
  const unknown = asked.filter((field) => field !== "all" && !(fieldNames as ReadonlyArray<string>).includes(field))
  if (unknown.length > 0) {
    return Effect.fail(
      new CliFailure({ message: `--fields takes ${fieldNames.join(", ")} or all; not ${unknown.join(", ")}` })
    )
  }
  return Effect.succeed(asked.includes("all") ? fieldNames : fieldNames.filter((field) => asked.includes(field)))
}

const toJson = (extraction: Extractor.ExtractionOutput, fields: ReadonlyArray<Field>, docType: string | undefined) => ({
  doc_type: docType ?? null,
  ...(fields.includes("metrics")
    ? {
      metrics: Object.fromEntries(
        Object.entries(extraction.metrics).flatMap(([name, metric]) =>
          metric === undefined ? [] : [[name, {
            value: metric.value,
            unit: metric.unit,
            period: metric.period,
            ...(metric.asOf === undefined ? {} : { as_of: metric.asOf }),
            ...(metric.yoyChange === undefined ? {} : { yoy_change: metric.yoyChange }),
            source: metric.source
          }]]
        )
      )
    }
    : {}),
  ...(fields.includes("tables")
    ? {
      tables: extraction.tables.map(({ tableType, ...table }) => ({ ...table, table_type: tableType }))
    }
    : {}),
  ...(fields.includes("exhibits") ? { exhibits: extraction.exhibits } : {}),
  ...(fields.includes("signatures") && extraction.signatures !== undefined
    ? { signatures: Schema.encodeSync(ExtractedValues.Signatures)(extraction.signatures) }
    : {}),
  warnings: extraction.warnings
})

export const extractCommand = Command.make(
  "extract",
  {
    file: Args.file({ name: "FILE", exists: "yes" }),
    form: formOption,
    accession: Options.text("accession").pipe(
      Options.withDescription("the accession number for exhibit URLs, when the file does not say it"),
      Options.optional
    ),
    fields: Options.text("fields").pipe(
      Options.withDescription("comma-separated: metrics, tables, exhibits, signatures, or all"),
      Options.withDefault("all")
    ),
    json: jsonOption
  },
  ({ accession, fields, file, form }) =>
    Effect.gen(function*() {
      const wanted = yield* parseFields(fields)
      const { bytes, parsed } = yield* readAndParse(file, form)
      const publicationId = Option.getOrUndefined(accession) ?? parsed.header?.accessionNumber ?? basename(file)
      const extraction = yield* Extractor.extract({ bytes, parsed, publicationId })
      // The extraction is structured data; it is printed as JSON with or without --json.
      yield* Output.json(toJson(extraction, wanted, parsed.form))
    })
).pipe(Command.withDescription("Extract metrics, tables, exhibits and signatures from a filing, as JSON"))
