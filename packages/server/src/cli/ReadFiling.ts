/**
 * What the commands that work on a local file (`parse`, `extract`, `summarize`) share: read it and
 * parse it, with a form hint when the caller gives one (checked as `ingest --form` checks it),
 * failing with a message that names the file.
 */
import { Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { DocType } from "@filings/domain"
import { Parser } from "@filings/filings-parser"
import { Effect, Option, Schema } from "effect"
import { basename } from "node:path"
import { CliFailure, fromParseError } from "./CliFailure.js"

/** The `--form` option of these commands, described as `ingest` describes it. */
export const formOption = Options.text("form").pipe(
  Options.withAlias("type"),
  Options.withPseudoName("TYPE"),
  Options.withDescription(
    `The document type, when the file does not say it: ${DocType.DocumentTypes.join(", ")}. Example: --form 10-Q`
  ),
  Options.optional
)

/** A form the caller gives, checked against the supported document types like `ingest --form`. */
export const decodeForm = (form: Option.Option<string>) =>
  Option.match(form, {
    onNone: () => Effect.succeed(Option.none<DocType.DocType>()),
    onSome: (text) =>
      Schema.decodeUnknown(DocType.DocType)(text.trim()).pipe(
        Effect.map(Option.some),
        Effect.mapError((error) => new CliFailure({ message: `--form ${fromParseError(error).message}` }))
      )
  })

export const readAndParse = (file: string, formText: Option.Option<string>) =>
  Effect.gen(function*() {
    const form = yield* decodeForm(formText)
    const fs = yield* FileSystem.FileSystem
    const bytes = yield* fs.readFile(file).pipe(
      Effect.mapError((error) => new CliFailure({ message: `cannot read ${file}: ${error.message}` }))
    )
    const parsed = yield* Parser.parse({
      bytes,
      fileName: basename(file),
      ...(Option.isSome(form) ? { form: form.value } : {})
    }).pipe(Effect.mapError((error) => new CliFailure({ message: `${file}: ${error.message}` })))
    return { bytes, parsed }
  })
