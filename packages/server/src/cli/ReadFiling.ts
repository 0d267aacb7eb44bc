/**
 * What the commands that work on a local file (`parse`, `extract`, `summarize`) share: read it and
 * parse it, with a form hint when the caller gives one, failing with a message that names the file.
 */
import { FileSystem } from "@effect/platform"
import { Parser } from "@filings/filings-parser"
import { Effect, Option } from "effect"
import { basename } from "node:path"
import { CliFailure } from "./CliFailure.js"

export const readAndParse = (file: string, form: Option.Option<string>) =>
  Effect.gen(function*() {
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
