import { assert, describe, it } from "@effect/vitest"
import { Document, ExtractedValues } from "@filings/domain"
import { Exhibits, MetricValue, Signatures, Tables } from "@filings/extractor"
import { DocumentStore, ExtractionStore } from "@filings/storage"

// What the extractor returns, what the stores keep and what the API serves are one schema each,
// not copies kept in step by mappers.
describe("the extractor's and the stores' shapes are the domain's", () => {
  it("tables, metric values, exhibit references and signatures", () => {
    assert.strictEqual(Tables.Table, ExtractedValues.Table)
    assert.strictEqual(ExtractionStore.StoredTable, ExtractedValues.Table)
    assert.strictEqual(MetricValue.MetricValue, ExtractedValues.MetricValue)
    assert.strictEqual(ExtractionStore.StoredMetric.fields.asOf, ExtractedValues.MetricValue.fields.asOf)
    assert.strictEqual(Exhibits.ExhibitReference, ExtractedValues.ExhibitReference)
    assert.strictEqual(ExtractionStore.StoredExhibitReference, ExtractedValues.ExhibitReference)
    assert.strictEqual(Signatures.Signatures, ExtractedValues.Signatures)
    assert.strictEqual(ExtractionStore.StoredSignatures, ExtractedValues.Signatures)
  })

  it("document metadata, sections and exhibits", () => {
    assert.strictEqual(DocumentStore.DocumentMetadata, Document.DocumentMetadata)
    assert.strictEqual(DocumentStore.StoredSection, Document.LabeledSection)
    assert.strictEqual(DocumentStore.StoredExhibit, Document.Exhibit)
  })
})
