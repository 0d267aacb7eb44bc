/**
 * How an EDGAR failure is told to the operator. The library's own messages speak of its options;
 * only the composition root knows which variable sets each option, so it provides the wording
 * (one that names the variable to fix where the fix is a variable) to the pipeline and to the
 * commands that read EDGAR.
 */
import { Context, Layer } from "effect"

/** A failure's message as the operator reads it. */
export type Wording = (error: { readonly message: string }) => string

export class EdgarFailureWording extends Context.Tag("@filings/server/EdgarFailureWording")<
  EdgarFailureWording,
  Wording
>() {}

/** The wording as a layer. */
export const layer = (wording: Wording): Layer.Layer<EdgarFailureWording> => Layer.succeed(EdgarFailureWording, wording)
