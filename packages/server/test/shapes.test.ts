import { assert, describe, it } from "@effect/vitest"
import { Document, Extracted } from "@filings/domain"
import { Exhibits, Extraction, Signatures, Tables } from "@filings/extractor"
import { DocumentStore, ExtractionStore } from "@filings/storage"

// What the extractor returns, what the stores keep and what the API serves are one schema each,
// not copies kept in step by mappers.
describe("the extractor's and the stores' shapes are the domain's", () => {
  it("tables, metric values, exhibit references and signatures", () => {
    assert.strictEqual(Tables.Table, Extracted.Table)
    assert.strictEqual(ExtractionStore.StoredTable, Extracted.Table)
    assert.strictEqual(Extraction.MetricValue, Extracted.MetricValue)
    assert.strictEqual(ExtractionStore.StoredMetric.fields.asOf, Extracted.MetricValue.fields.asOf)
    assert.strictEqual(Exhibits.ExhibitReference, Extracted.ExhibitReference)
    assert.strictEqual(ExtractionStore.StoredExhibitReference, Extracted.ExhibitReference)
    assert.strictEqual(Signatures.Signatures, Extracted.Signatures)
    assert.strictEqual(ExtractionStore.StoredSignatures, Extracted.Signatures)
  })

  it("document metadata, sections and exhibits", () => {
    assert.strictEqual(DocumentStore.DocumentMetadata, Document.DocumentMetadata)
    assert.strictEqual(DocumentStore.StoredSection, Document.LabeledSection)
    assert.strictEqual(DocumentStore.StoredExhibit, Document.Exhibit)
  })
})
