/**
 * `filings facts FILE`: every fact the filing tags in its XBRL (no server, no database): concept,
 * the company's label, value, unit, decimals, period, dimensions and where the document shows it,
 * as `{"facts": [...], "warnings": [...]}` with `--json`, else a line per fact.
 */
import { Args, Command, Options } from "@effect/cli"
import { ExtractedValues } from "@filings/domain"
import { Extractor } from "@filings/extractor"
import { Effect, Option, Schema } from "effect"
import { CliFailure } from "./CliFailure.js"
import * as Output from "./Output.js"
import { formOption, readAndParse } from "./ReadFiling.js"
import { jsonOption } from "./SharedOptions.js"

const encodeFact = Schema.encodeSync(ExtractedValues.Fact)

const periodText = (period: ExtractedValues.FactPeriod): string =>
  "instant" in period ? period.instant : `${period.start} to ${period.end}`

const line = (fact: ExtractedValues.Fact): string => {
  const dimensions = Object.entries(fact.dimensions).map(([axis, member]) => `${axis}=${member}`).join(", ")
  const value = fact.value === null
    ? "nil"
    : typeof fact.value === "number"
    ? String(fact.value)
    : JSON.stringify(fact.value)
  return `${fact.concept}  ${periodText(fact.period)}${dimensions === "" ? "" : `  [${dimensions}]`}  ${value}${
    fact.unit === null ? "" : ` ${fact.unit}`
  }`
}

const dimensionsChoice = (text: Option.Option<string>): Effect.Effect<"none" | "any", CliFailure> =>
  Option.match(text, {
    onNone: () => Effect.succeed("any" as const),
    onSome: (value) =>
      value === "none"
        ? Effect.succeed("none" as const)
        : Effect.fail(new CliFailure({ message: `--dimensions takes none; not ${value}` }))
  })

export const factsCommand = Command.make(
  "facts",
  {
    file: Args.file({ name: "FILE", exists: "yes" }),
    form: formOption,
    concept: Options.text("concept").pipe(
      Options.withDescription("only these concepts, comma-separated (us-gaap:Revenues,us-gaap:NetIncomeLoss)"),
      Options.optional
    ),
    dimensions: Options.text("dimensions").pipe(
      Options.withDescription("none: only the facts without dimensions (the totals)"),
      Options.optional
    ),
    json: jsonOption
  },
  ({ concept, dimensions, file, form, json }) =>
    Effect.gen(function*() {
      const onlyTotals = (yield* dimensionsChoice(dimensions)) === "none"
      const concepts = Option.map(concept, (text) => new Set(text.split(",").map((name) => name.trim())))
      const { bytes, parsed } = yield* readAndParse(file, form)
      const { facts, warnings } = yield* Extractor.facts({ bytes, parsed })
      const chosen = facts.filter((fact) =>
        (Option.isNone(concepts) || concepts.value.has(fact.concept)) &&
        (!onlyTotals || Object.keys(fact.dimensions).length === 0)
      )
      yield* Output.result(
        json,
        { facts: chosen.map((fact) => encodeFact(fact)), warnings },
        () => [...chosen.map(line), ...warnings.map((warning) => `warning: ${warning}`)].join("\n")
      )
    })
).pipe(Command.withDescription("Every fact a filing tags in its XBRL: concept, label, value, unit, period, dimensions"))
