/**
 * Who signed a filing and when: the signature page's `/s/` signers with their titles and the date
 * written on it (`November 1, 2024` → `2024-11-01`).
 *
 * @module
 */
import { ExtractedValues } from "@filings/domain"
import type { ParsedDocument } from "@filings/filings-parser"
import { readSignatures } from "./internal/signatures/readSignatures.js"

/** One `/s/` signer: the one schema of `@filings/domain`'s `ExtractedValues.Signer`. */
export const Signer = ExtractedValues.Signer
export type Signer = ExtractedValues.Signer

/**
 * The signers and the date of the signature page: the one schema of `@filings/domain`'s
 * `ExtractedValues.Signatures`. `signedDate` is absent (with a warning) when the page names signers but no
 * date.
 */
export const Signatures = ExtractedValues.Signatures
export type Signatures = ExtractedValues.Signatures

/** The signatures of a document, if it has any, and what could not be read on its signature page. */
export interface SignaturesResult {
  /** Absent when the document has no signature page or no `/s/` signer on it. */
  readonly signatures?: Signatures | undefined
  /**
   * Why there are no signatures (no signature page, no `/s/` signer on it), or that the page has no
   * date: data, never a failure.
   */
  readonly warnings: Array<string>
}

/** The signatures of a parsed document: the `Signatures` section, else a `SIGNATURE(S)` heading. */
export const extractSignatures = (document: ParsedDocument.ParsedDocument): SignaturesResult => readSignatures(document)
