/**
 * Summarising that never fails: the configured `SummaryModel` is asked first, within a time limit;
 * its answer is checked (`Citations.checkCitations`), and a failure, a time-out or an answer with no
 * highlight left standing gives way to the offline extractive model. The summary says which model
 * wrote it, and why the default stood in when it did.
 *
 * @module
 */
import { Duration, Effect } from "effect"
import { checkCitations } from "./Citations.js"
import * as ExtractiveModel from "./ExtractiveModel.js"
import type { Summary, SummaryInput } from "./Summary.js"
import { SummaryModel } from "./SummaryModel.js"

/** How long the configured model may take. */
export interface SummarizeOptions {
  /** How long the model may take; 60 seconds unless given. */
  readonly timeout?: Duration.DurationInput | undefined
}

/** A checked summary, with what was corrected and why the extractive model stood in, when it did. */
export interface SummaryOutcome {
  readonly summary: Summary
  /** Citations repaired and highlights dropped in the model's answer. */
  readonly corrections: ReadonlyArray<string>
  /** Why the extractive model stood in for the configured one, when it did. */
  readonly fallbackReason?: string | undefined
}

const DefaultTimeout = Duration.seconds(60)

const fallback = (input: SummaryInput, reason: string, corrections: ReadonlyArray<string> = []): SummaryOutcome => ({
  summary: checkCitations(ExtractiveModel.summarize(input), input).summary,
  corrections,
  fallbackReason: reason
})

/** Summarises `input` with the configured model, falling back to the extractive one. */
export const summarize = (
  input: SummaryInput,
  options: SummarizeOptions = {}
): Effect.Effect<SummaryOutcome, never, SummaryModel> =>
  Effect.gen(function*() {
    const model = yield* SummaryModel
    const timeout = Duration.decode(options.timeout ?? DefaultTimeout)
    const answered = yield* model.summarize(input).pipe(
      Effect.timeoutFail({ duration: timeout, onTimeout: () => `no answer within ${Duration.format(timeout)}` }),
      Effect.mapError((error) => (typeof error === "string" ? error : error.reason)),
      // A defect in a model adapter must not cost the document its feed item either.
      Effect.catchAllDefect((defect) => Effect.fail(`the model crashed: ${String(defect)}`)),
      Effect.either
    )
    if (answered._tag === "Left") {
      yield* Effect.logWarning(`summary model ${model.name} failed; the extractive model stands in: ${answered.left}`)
      return fallback(input, answered.left)
    }
    const checked = checkCitations(answered.right, input)
    if (checked.summary.highlights.length === 0 && answered.right.highlights.length > 0) {
      yield* Effect.logWarning(
        `summary model ${model.name} gave no supported highlight; the extractive model stands in`
      )
      return fallback(input, "no highlight of the model's answer was supported by the document", checked.corrections)
    }
    if (checked.corrections.length > 0) {
      yield* Effect.logInfo(`summary of ${input.source} by ${model.name} corrected: ${checked.corrections.join("; ")}`)
    }
    return { summary: checked.summary, corrections: checked.corrections }
  }).pipe(Effect.withSpan("FeedSummarizer.summarize"))
