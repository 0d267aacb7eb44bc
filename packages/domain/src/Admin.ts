/**
 * Operator resources: API keys and the upload of local filings. These travel over the `/admin`
 * routes, which only an admin token opens, so the CLI can manage a running server.
 *
 * @module
 */
import { Multipart } from "@effect/platform"
import { Schema } from "effect"
import { IsoDate, Timestamp } from "./Dates.js"
import { DocType } from "./DocType.js"
import { PublicationId, Ticker } from "./Ids.js"
import { IntegerInRange, NonNegativeInteger, Text, wholeValueMessage, withoutNul } from "./QueryParams.js"

/**
 * The plan of an API key. `standard` (the default) allows {@link StandardPlanRequestsPerMinute}
 * requests per minute; `enterprise` takes the rate limit given when the key is created.
 */
export const ApiKeyPlan = Schema.Literal("standard", "enterprise").annotations({
  message: wholeValueMessage((actual) => `must be standard or enterprise, got ${JSON.stringify(actual)}`)
})
export type ApiKeyPlan = typeof ApiKeyPlan.Type

/** Requests per minute of the standard plan. */
export const StandardPlanRequestsPerMinute = 100

/** An API key as listed: never the key itself, only the first characters that help tell keys apart. */
export class ApiKeyInfo extends Schema.Class<ApiKeyInfo>("ApiKeyInfo")({
  id: Schema.String,
  name: Schema.String,
  plan: ApiKeyPlan,
  rate_limit: Schema.Number,
  key_prefix: Schema.String,
  created_at: Timestamp,
  revoked_at: Schema.NullOr(Timestamp)
}) {}

/** A key as created: the one time the key is shown. */
export class CreatedApiKey extends Schema.Class<CreatedApiKey>("CreatedApiKey")({
  ...ApiKeyInfo.fields,
  key: Schema.String
}) {}

/** The answer of `GET /admin/keys`: every key, revoked ones included (with `revoked_at`). */
export class ApiKeyList extends Schema.Class<ApiKeyList>("ApiKeyList")({
  keys: Schema.Array(ApiKeyInfo)
}) {}

/**
 * The body of `POST /admin/keys`: a name for people (trimmed, 1 to 200 characters), the plan
 * (`standard` when absent) and, for an enterprise key only, its `rate_limit` in requests per minute.
 *
 * @example
 * import { Admin } from "@filings/domain"
 * import { Schema } from "effect"
 *
 * Schema.decodeUnknownSync(Admin.CreateApiKeyRequest)({ name: "research desk", plan: "enterprise", rate_limit: 600 })
 */
export class CreateApiKeyRequest extends Schema.Class<CreateApiKeyRequest>("CreateApiKeyRequest")({
  name: Schema.Trim.pipe(
    Schema.nonEmptyString({ message: () => "must not be empty" }),
    Schema.maxLength(200, { message: () => "must be at most 200 characters" }),
    withoutNul
  ),
  plan: Schema.optionalWith(ApiKeyPlan, { exact: true }),
  rate_limit: Schema.optionalWith(
    Schema.Int.pipe(
      Schema.between(1, 1_000_000, {
        message: (issue) => `must be a whole number from 1 to 1000000, got ${JSON.stringify(issue.actual)}`
      })
    ),
    { exact: true }
  )
}) {}

/** Metadata given with an uploaded filing; each field overrides what the file itself says. */
export const IngestOverrides = {
  ticker: Schema.optionalWith(Ticker, { exact: true }),
  cik: Schema.optionalWith(Text, { exact: true }),
  company_name: Schema.optionalWith(Text, { exact: true }),
  form: Schema.optionalWith(DocType, { exact: true }),
  accession: Schema.optionalWith(PublicationId, { exact: true }),
  filing_date: Schema.optionalWith(IsoDate, { exact: true }),
  /** A filing loaded as history (a backfill): stored with its press releases, but no event is recorded. */
  history: Schema.optionalWith(Schema.BooleanFromString, { exact: true })
}

/**
 * The overrides of an ingestion on their own, as string fields (`history` is `"true"` or
 * `"false"`): the command line and a manifest row are checked with it, so they refuse the same
 * input the upload does.
 */
export const IngestMetadata = Schema.Struct(IngestOverrides)
export type IngestMetadata = typeof IngestMetadata.Type

/** A filing uploaded for ingestion, as multipart form data: the file and optional metadata fields. */
export const IngestUpload = Schema.Struct({
  file: Multipart.SingleFileSchema,
  ...IngestOverrides
})

/**
 * What an ingestion stored: the document's id and metadata as read from the file and the overrides,
 * and `status`: `created` for a new document, `updated` when one with this publication id was
 * replaced.
 */
export class IngestResult extends Schema.Class<IngestResult>("IngestResult")({
  publication_id: PublicationId,
  status: Schema.Literal("created", "updated"),
  ticker: Ticker,
  company_name: Schema.String,
  doc_type: DocType,
  filing_date: IsoDate,
  title: Schema.String,
  word_count: Schema.Number
}) {}

/** The event log's query: events recorded after a sequence number, oldest first. */
export const EventLogParams = Schema.Struct({
  after: Schema.optionalWith(NonNegativeInteger, { exact: true }),
  limit: Schema.optionalWith(IntegerInRange(1, 1000), { exact: true })
})

/** An event as recorded: its place in the log and the payload it is delivered with. */
export class RecordedEvent extends Schema.Class<RecordedEvent>("RecordedEvent")({
  sequence: Schema.Number,
  id: Schema.String,
  type: Schema.String,
  recorded_at: Timestamp,
  payload: Schema.Unknown
}) {}

/** A page of the log; `next_after` continues it. */
export class EventLog extends Schema.Class<EventLog>("EventLog")({
  events: Schema.Array(RecordedEvent),
  next_after: Schema.Number
}) {}
