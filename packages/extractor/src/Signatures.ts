/**
 * Who signed a filing and when: the signature page's `/s/` signers with their titles and the date
 * written on it (`November 1, 2024` → `2024-11-01`).
 */
import type { ParsedDocument } from "@filings/filings-parser"
import { Schema } from "effect"
import { readSignatures } from "./internal/signatures/readSignatures.js"

export const Signer = Schema.Struct({
  /** As signed, without the `/s/` mark. */
  name: Schema.String,
  /** The title under or beside the name, without the `(Principal ... Officer)` capacity note. */
  title: Schema.String
})
export type Signer = typeof Signer.Type

export const Signatures = Schema.Struct({
  /** ISO date; "" (with a warning) when the page names signers but no date. */
  signedDate: Schema.String,
  signers: Schema.Array(Signer)
})
export type Signatures = typeof Signatures.Type

export interface SignaturesResult {
  /** Absent when the document has no signature page or no `/s/` signer on it. */
  readonly signatures?: Signatures | undefined
  readonly warnings: Array<string>
}

/** The signatures of a parsed document: the `Signatures` section, else a `SIGNATURE(S)` heading. */
export const extractSignatures = (document: ParsedDocument.ParsedDocument): SignaturesResult => readSignatures(document)
