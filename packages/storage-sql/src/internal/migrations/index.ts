/**
 * Every migration, keyed `<id>_<name>` for `Migrator.fromRecord`. Ids only grow; a migration that
 * has shipped is never edited, a later one changes what it did.
 */
import type { SqlClient } from "@effect/sql"
import type { Effect } from "effect"
import filingsMeta from "./0001_filings_meta.js"
import storage from "./0002_storage.js"
import documentSections from "./0003_document_sections.js"
import extractions from "./0004_extractions.js"
import events from "./0005_events.js"
import webhooks from "./0006_webhooks.js"
import documentChunks from "./0007_document_chunks.js"
import feedItems from "./0008_feed_items.js"
import companyNameAsOf from "./0009_company_name_as_of.js"
import metricAsOf from "./0010_metric_as_of.js"
import searchIndex from "./0011_search_index.js"
import companyDirectory from "./0012_company_directory.js"
import eventsByCompany from "./0013_events_by_company.js"
import documentsByCompany from "./0014_documents_by_company.js"
import searchNewestFirst from "./0015_search_newest_first.js"
import chunkTextInRow from "./0016_chunk_text_in_row.js"
import companyFormerNames from "./0017_company_former_names.js"
import eventsByRecordedAt from "./0018_events_by_recorded_at.js"
import coordination from "./0019_coordination.js"
import retention from "./0020_retention.js"
import companyTickers from "./0021_company_tickers.js"
import documentBlocks from "./0022_document_blocks.js"

export const migrations: Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>> = {
  "0001_filings_meta": filingsMeta,
  "0002_storage": storage,
  "0003_document_sections": documentSections,
  "0004_extractions": extractions,
  "0005_events": events,
  "0006_webhooks": webhooks,
  "0007_document_chunks": documentChunks,
  "0008_feed_items": feedItems,
  "0009_company_name_as_of": companyNameAsOf,
  "0010_metric_as_of": metricAsOf,
  "0011_search_index": searchIndex,
  "0012_company_directory": companyDirectory,
  "0013_events_by_company": eventsByCompany,
  "0014_documents_by_company": documentsByCompany,
  "0015_search_newest_first": searchNewestFirst,
  "0016_chunk_text_in_row": chunkTextInRow,
  "0017_company_former_names": companyFormerNames,
  "0018_events_by_recorded_at": eventsByRecordedAt,
  "0019_coordination": coordination,
  "0020_retention": retention,
  "0021_company_tickers": companyTickers,
  "0022_document_blocks": documentBlocks
}
