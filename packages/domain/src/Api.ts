/**
 * The `/v1` HTTP API as one definition, from which the server, the OpenAPI document, the docs page
 * and the typed client are all derived.
 *
 * @module
 */
import {
  HttpApi,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSchema,
  HttpApiSecurity,
  OpenApi
} from "@effect/platform"
import { Context, Schema } from "effect"
import type { ApiKeyPlan } from "./Admin.js"
import {
  ApiKeyInfo,
  ApiKeyList,
  CreateApiKeyRequest,
  CreatedApiKey,
  EventLog,
  EventLogParams,
  IngestResult,
  IngestUpload
} from "./Admin.js"
import * as ApiError from "./ApiError.js"
import { ChatAnswer, chatEventStreamDescription, ChatRequest } from "./Chat.js"
import {
  CompanyList,
  CompanyListing,
  CompanyListingSaved,
  CompanyPath,
  CompanyProfile,
  CompanySearchParams
} from "./Company.js"
import { Document, DocumentList, ExhibitDocument, GetDocumentParams, ListDocumentsParams } from "./Document.js"
import {
  BulkMetricsParams,
  BulkTablesParams,
  CompanyMetrics,
  CompanyMetricsList,
  CompanyTables,
  ExtractionResult,
  ExtractParams
} from "./ExtractionApi.js"
import { DocumentChunk, FeedRequest, FeedResponse } from "./Feed.js"
import { PublicationId, Ticker } from "./Ids.js"
import { queryKeyScheme, tidyOpenApi } from "./internal/openApiTidy.js"
import { PathId } from "./QueryParams.js"
import { SearchParams, SearchResults } from "./Search.js"
import { DocumentSections, DocumentSectionsParams, SectionResults, SectionSearchParams } from "./Sections.js"
import { EventStreamBody, StreamHeaders, StreamParams } from "./Streams.js"
import { TimelinePage, TimelineParams } from "./Timeline.js"
import {
  CreatedWebhook,
  CreateWebhookRequest,
  DeliveryListParams,
  RecoverWebhookRequest,
  RecoverWebhookResult,
  UpdateWebhookRequest,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList
} from "./Webhooks.js"

/** The API key a request was made with, once the key has been checked. */
export class CurrentApiKey extends Context.Tag("@filings/domain/Api/CurrentApiKey")<CurrentApiKey, {
  readonly id: string
  readonly name: string
  readonly plan: ApiKeyPlan
  readonly rateLimit: number
}>() {}

/** Checks the `Authorization: Bearer` key and charges the request to the key's rate limit. */
export class Authorization extends HttpApiMiddleware.Tag<Authorization>()("@filings/domain/Api/Authorization", {
  failure: Schema.Union(
    ApiError.UnauthorizedResponse,
    ApiError.RateLimitExceededResponse,
    ApiError.ServiceUnavailableResponse
  ),
  provides: CurrentApiKey,
  security: {
    /** The API key, sent as `Authorization: Bearer <key>`. */
    apiKey: HttpApiSecurity.bearer
  }
}) {}

/**
 * {@link Authorization} for the routes a browser's EventSource opens, which cannot send headers:
 * the key comes from `Authorization: Bearer`, else from the `api_key` query parameter. It is not a
 * security middleware because one request must be judged once, by the key it gave, whichever place
 * it was in (the OpenAPI document names both schemes on those routes).
 */
export class StreamAuthorization extends HttpApiMiddleware.Tag<StreamAuthorization>()(
  "@filings/domain/Api/StreamAuthorization",
  {
    failure: Schema.Union(
      ApiError.UnauthorizedResponse,
      ApiError.RateLimitExceededResponse,
      ApiError.ServiceUnavailableResponse
    ),
    provides: CurrentApiKey
  }
) {}

/** Opens the `/admin` routes to the operator's admin token. */
export class AdminAuthorization
  extends HttpApiMiddleware.Tag<AdminAuthorization>()("@filings/domain/Api/AdminAuthorization", {
    failure: ApiError.UnauthorizedResponse,
    security: {
      /** The operator's admin token, sent as `Authorization: Bearer <token>`. */
      adminToken: HttpApiSecurity.bearer
    }
  })
{}

const publicationIdPath = Schema.Struct({ publication_id: PublicationId })
const webhookIdPath = Schema.Struct({ webhook_id: PathId })

/**
 * Documents: one document (its Markdown body, sections or metadata, with its exhibits or one of
 * them), one chunk a feed citation names, and the filtered, paged list. Every route needs an API key.
 */
export class DocumentsGroup extends HttpApiGroup.make("documents")
  .add(
    HttpApiEndpoint.get("getDocument", "/v1/documents/:publication_id")
      .setPath(publicationIdPath)
      .setUrlParams(GetDocumentParams)
      .addSuccess(Schema.Union(Document, ExhibitDocument))
      .addError(ApiError.DocumentNotFoundResponse)
      .addError(ApiError.ExhibitNotFoundResponse)
      .annotate(OpenApi.Summary, "Get a document")
      .annotate(
        OpenApi.Description,
        "The document's metadata and Markdown body (format=markdown), its labeled sections (format=sections) " +
          "or metadata only (format=metadata). include_exhibits=true adds the exhibits; exhibit=<number> " +
          "returns that one exhibit instead."
      )
  )
  .add(
    HttpApiEndpoint.get("getDocumentChunk", "/v1/documents/:publication_id/chunks/:chunk_id")
      .setPath(Schema.Struct({ publication_id: PublicationId, chunk_id: PathId }))
      .addSuccess(DocumentChunk)
      .addError(ApiError.DocumentNotFoundResponse)
      .addError(ApiError.ChunkNotFoundResponse)
      .annotate(OpenApi.Summary, "One passage of a document, as a feed citation names it")
      .annotate(
        OpenApi.Description,
        "The chunk a feed highlight cites (source = publication_id, chunk_id): its Markdown text and the " +
          "section it starts in."
      )
  )
  .add(
    HttpApiEndpoint.get("listDocuments", "/v1/documents")
      .setUrlParams(ListDocumentsParams)
      .addSuccess(DocumentList)
      .annotate(OpenApi.Summary, "List documents")
      .annotate(
        OpenApi.Description,
        "Documents matching at least one filter (tickers, doc_types, start_date or end_date), newest first by " +
          "default. Page by adding limit to offset until offset + limit >= total."
      )
  )
  .middleware(Authorization)
{}

/**
 * Sections: the labeled sections of one document (all, or the one `section` names), and one section
 * across the documents of several companies. Every route needs an API key.
 */
export class SectionsGroup extends HttpApiGroup.make("sections")
  .add(
    HttpApiEndpoint.get("getDocumentSections", "/v1/documents/:publication_id/sections")
      .setPath(publicationIdPath)
      .setUrlParams(DocumentSectionsParams)
      .addSuccess(DocumentSections)
      .addError(ApiError.DocumentNotFoundResponse)
      .addError(ApiError.SectionNotFoundResponse)
      .annotate(OpenApi.Summary, "Sections of one document")
  )
  .add(
    HttpApiEndpoint.get("searchSections", "/v1/sections")
      .setUrlParams(SectionSearchParams)
      .addSuccess(SectionResults)
      .annotate(OpenApi.Summary, "One section across many documents")
  )
  .middleware(Authorization)
{}

/**
 * Search: the stored passages of every document that hold a query's words, best first, each citing
 * the chunk it comes from. Needs an API key.
 */
export class SearchGroup extends HttpApiGroup.make("search")
  .add(
    HttpApiEndpoint.get("search", "/v1/search")
      .setUrlParams(SearchParams)
      .addSuccess(SearchResults)
      .annotate(OpenApi.Summary, "Full-text search over every passage")
      .annotate(
        OpenApi.Description,
        "Passages holding the words of q, best first (BM25 over stemmed words, figures without their commas, the " +
          "document's ticker, company name, form and section title). q takes words, \"quoted phrases\" a passage " +
          "must hold, -excluded words or phrases, and OR between two. Each result cites a chunk " +
          "(GET /v1/documents/{publication_id}/chunks/{chunk_id}) with its physical pages, and a snippet with the " +
          "matched words marked **like this**. A q with nothing to search for (only common words or operators) " +
          "answers 400. Page by adding limit to offset until offset + limit >= total."
      )
  )
  .middleware(Authorization)
{}

/**
 * Chat: `POST /v1/chat`, a question answered from the stored passages, every sentence cited. Needs
 * an API key.
 */
export class ChatGroup extends HttpApiGroup.make("chat")
  .add(
    HttpApiEndpoint.post("chat", "/v1/chat")
      .setPayload(ChatRequest)
      .addSuccess(ChatAnswer)
      .addError(ApiError.DocumentNotFoundResponse)
      .annotate(OpenApi.Summary, "Ask a question; get a cited answer")
      .annotate(
        OpenApi.Description,
        "The passages that best answer the question (searched as GET /v1/search searches, within the filters) are " +
          "read, and the answer is written from them: by the configured chat-completions model, or, without one " +
          "or when it fails or is slow, by the offline extractive model (the passages' own sentences and table " +
          "rows). Every sentence cites the passages it comes from and every figure it states is in one of them; " +
          "a sentence of a model that fails the check is cited again or dropped, and corrections says so. When " +
          "the passages do not answer the question, the answer says it cannot tell. history carries earlier " +
          "turns (at most 20), so that a follow-up is understood. With stream: true the answer is " +
          "text/event-stream: sources, then each sentence, then done with the whole answer."
      )
      // One status, two bodies: HttpApi describes one per status, so the stream is added to the document here.
      .annotate(OpenApi.Transform, (operation) => {
        const ok = (operation.responses as Record<string, { content?: Record<string, unknown> }>)["200"]
        if (ok?.content !== undefined) {
          ok.content["text/event-stream"] = { schema: { type: "string", description: chatEventStreamDescription } }
        }
        return operation
      })
  )
  .middleware(Authorization)
{}

/**
 * Streams: `GET /v1/stream`, the events webhooks carry as Server-Sent Events, resumable by sequence.
 * Needs an API key, in the `Authorization` header or the `api_key` query parameter.
 */
export class StreamsGroup extends HttpApiGroup.make("streams")
  .add(
    HttpApiEndpoint.get("stream", "/v1/stream")
      .setUrlParams(StreamParams)
      .setHeaders(StreamHeaders)
      .addSuccess(EventStreamBody.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/event-stream" })))
      .annotate(OpenApi.Summary, "Listen to events as Server-Sent Events")
      .annotate(
        OpenApi.Description,
        "The events webhooks carry (filing.new, filing.8k_material, earnings_call.new, earnings_call.upcoming, " +
          "press_release.new), with the same payloads and the same filters, as a text/event-stream that stays " +
          "open. Each event's id is its sequence in the event log: a client that reconnects with Last-Event-ID " +
          "(EventSource does it by itself) gets every event it missed, in order, none twice. Without " +
          "Last-Event-ID, after (a sequence) or since (a timestamp) says where to start; with none of them, the " +
          "stream starts from now. An idle stream gets a comment every 15 seconds. An API key may hold 5 streams " +
          "open on one server; one more answers 429. A Last-Event-ID or after beyond the newest event answers 400."
      )
      .annotate(OpenApi.Override, { security: [{ apiKey: [] }, { [queryKeyScheme]: [] }] })
  )
  .middleware(StreamAuthorization)
{}

/**
 * Extraction, read from what was extracted at ingestion: one document's metrics, tables, exhibits and
 * signatures; metric series across companies; classified tables across companies as JSON or CSV.
 * Every route needs an API key.
 */
export class ExtractGroup extends HttpApiGroup.make("extract")
  .add(
    HttpApiEndpoint.get("extractDocument", "/v1/documents/:publication_id/extract")
      .setPath(publicationIdPath)
      .setUrlParams(ExtractParams)
      .addSuccess(ExtractionResult)
      .addError(ApiError.DocumentNotFoundResponse)
      .annotate(OpenApi.Summary, "Metrics, tables, exhibits and signatures of one document")
  )
  .add(
    HttpApiEndpoint.get("bulkMetrics", "/v1/extract/metrics")
      .setUrlParams(BulkMetricsParams)
      .addSuccess(Schema.Union(CompanyMetrics, CompanyMetricsList))
      .annotate(OpenApi.Summary, "Metric series across companies")
  )
  .add(
    HttpApiEndpoint.get("bulkTables", "/v1/extract/tables")
      .setUrlParams(BulkTablesParams)
      .addSuccess(CompanyTables)
      .addSuccess(HttpApiSchema.Text({ contentType: "text/csv" }))
      .annotate(OpenApi.Summary, "Classified tables across companies, as JSON or CSV")
  )
  .middleware(Authorization)
{}

/**
 * The feed, `POST /v1/feed`: summarised items with cited highlights for the given tickers, newest
 * first, paged by cursor or by date. Needs an API key.
 */
export class FeedGroup extends HttpApiGroup.make("feed")
  .add(
    HttpApiEndpoint.post("feed", "/v1/feed")
      .setPayload(FeedRequest)
      .addSuccess(FeedResponse)
      .annotate(OpenApi.Summary, "Summarised items with cited highlights, newest first")
      .annotate(
        OpenApi.Description,
        "Newest first, ties by id. Every answer says whether more items follow (`has_more`) and where they start " +
          "(`next_cursor`, null at the end). Page either way, without a loss or a repeat: send `next_cursor` back as " +
          "`cursor` with the same filters, which can go on inside a group of items published at one instant; or, as " +
          "the specification says, pass the oldest item's `date` (a timestamp, exclusive) as the next `end_date`. A " +
          "page answered without a cursor never ends inside a group of one instant, and holds a group larger than " +
          "`limit` whole (the only time it holds more). A date-only `end_date` is inclusive: the page holds that " +
          "whole day (UTC) and at least the next older instant, so passing back the oldest item's date always " +
          "moves on; stop where `has_more` is false."
      )
  )
  .middleware(Authorization)
{}

/**
 * A company's timeline, `GET /v1/companies/{ticker}/timeline`: its documents and announced calls,
 * newest first, paged by cursor. Needs an API key.
 */
export class TimelineGroup extends HttpApiGroup.make("timeline")
  .add(
    HttpApiEndpoint.get("getTimeline", "/v1/companies/:ticker/timeline")
      .setPath(Schema.Struct({ ticker: Ticker }))
      .setUrlParams(TimelineParams)
      .addSuccess(TimelinePage)
      .addError(ApiError.CompanyNotFoundResponse)
      .annotate(OpenApi.Summary, "A company's filings, releases, calls and news, newest first")
      .annotate(
        OpenApi.Description,
        "One entry per filing (with an 8-K's items), press release, presentation, earnings call transcript, " +
          "announced call (dated by its scheduled time, in New York) and news item, each with the first highlight " +
          "of its feed item. Newest date first; entries of one date in a fixed order, so paging is exact: send " +
          "`next_cursor` back as `cursor` with the same types, start_date and end_date (limit may change) until " +
          "`has_more` is false. The ticker names the company as for GET /v1/companies/{ticker} (its primary ticker " +
          "or another class its cover or the regulator lists; `ticker` in the answer is its primary one), and the timeline holds the company's " +
          "documents whichever of its tickers they were stored under (a second class, a ticker it had before). A " +
          "ticker no company has answers 404 company_not_found."
      )
  )
  .middleware(Authorization)
{}

/**
 * Webhook subscriptions of the calling API key: create, list, read, change, delete, reactivate and
 * recover them, and read or redeliver their deliveries. Another key's subscription answers 404.
 */
export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("createWebhook", "/v1/webhooks")
      .setPayload(CreateWebhookRequest)
      .addSuccess(CreatedWebhook, { status: 201 })
      .annotate(OpenApi.Summary, "Subscribe a callback URL to events")
      .annotate(
        OpenApi.Description,
        "An API key may have at most 100 subscriptions; creating another answers 400 invalid_request."
      )
  )
  .add(
    HttpApiEndpoint.get("listWebhooks", "/v1/webhooks")
      .addSuccess(WebhookList)
      .annotate(OpenApi.Summary, "List subscriptions (without secrets)")
  )
  .add(
    HttpApiEndpoint.get("getWebhook", "/v1/webhooks/:webhook_id")
      .setPath(webhookIdPath)
      .addSuccess(Webhook)
      .addError(ApiError.WebhookNotFoundResponse)
      .annotate(OpenApi.Summary, "One subscription (without its secret)")
  )
  .add(
    HttpApiEndpoint.patch("updateWebhook", "/v1/webhooks/:webhook_id")
      .setPath(webhookIdPath)
      .setPayload(UpdateWebhookRequest)
      .addSuccess(Webhook)
      .addError(ApiError.WebhookNotFoundResponse)
      .annotate(OpenApi.Summary, "Pause, resume or change a subscription, or rotate its secret")
  )
  .add(
    HttpApiEndpoint.del("deleteWebhook", "/v1/webhooks/:webhook_id")
      .setPath(webhookIdPath)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(ApiError.WebhookNotFoundResponse)
      .annotate(OpenApi.Summary, "Delete a subscription")
  )
  .add(
    HttpApiEndpoint.post("reactivateWebhook", "/v1/webhooks/:webhook_id/reactivate")
      .setPath(webhookIdPath)
      .addSuccess(Webhook)
      .addError(ApiError.WebhookNotFoundResponse)
      .annotate(OpenApi.Summary, "Reactivate a failed subscription")
  )
  .add(
    HttpApiEndpoint.post("recoverWebhook", "/v1/webhooks/:webhook_id/recover")
      .setPath(webhookIdPath)
      .setPayload(RecoverWebhookRequest)
      .addSuccess(RecoverWebhookResult)
      .addError(ApiError.WebhookNotFoundResponse)
      .annotate(OpenApi.Summary, "Send again the deliveries skipped since a time")
  )
  .add(
    HttpApiEndpoint.get("listWebhookDeliveries", "/v1/webhooks/:webhook_id/deliveries")
      .setPath(webhookIdPath)
      .setUrlParams(DeliveryListParams)
      .addSuccess(WebhookDeliveryList)
      .addError(ApiError.WebhookNotFoundResponse)
      .annotate(
        OpenApi.Summary,
        "A subscription's deliveries, newest first: attempts, status codes, errors, next retry"
      )
  )
  .add(
    HttpApiEndpoint.post("redeliverWebhookDelivery", "/v1/webhooks/:webhook_id/deliveries/:delivery_id/redeliver")
      .setPath(Schema.Struct({ webhook_id: PathId, delivery_id: PathId }))
      .addSuccess(WebhookDelivery)
      .addError(ApiError.WebhookNotFoundResponse)
      .addError(ApiError.DeliveryNotFoundResponse)
      .annotate(OpenApi.Summary, "Send one delivery again, with the same delivery id")
  )
  .middleware(Authorization)
{}

/**
 * Companies: the search over every company the service knows (the regulator's list and the companies
 * of stored filings) and one company's profile. Every route needs an API key.
 */
export class CompaniesGroup extends HttpApiGroup.make("companies")
  .add(
    HttpApiEndpoint.get("listCompanies", "/v1/companies")
      .setUrlParams(CompanySearchParams)
      .addSuccess(CompanyList)
      .annotate(OpenApi.Summary, "Search companies by ticker, name or central index key")
      .annotate(
        OpenApi.Description,
        "q matches a ticker (exactly, or its beginning; every share class counts), a central index key (with or " +
          "without its leading zeros), or words that begin words of the name (`micro corp`) or of a former name " +
          "(`facebook`); without q, every company. exchange keeps one exchange's companies. Best matches first: an " +
          "exact ticker, the key, tickers q begins, name matches, then former-name matches; ties by ticker. Page by " +
          "adding limit to offset until offset + limit >= total."
      )
  )
  .add(
    HttpApiEndpoint.get("getCompany", "/v1/companies/:ticker")
      .setPath(CompanyPath)
      .addSuccess(CompanyProfile)
      .addError(ApiError.CompanyNotFoundResponse)
      .annotate(OpenApi.Summary, "One company: names, tickers, industry, its documents and latest metrics")
      .annotate(
        OpenApi.Description,
        "Any ticker of the company finds it (a second share class too). Industry, state of incorporation, fiscal " +
          "year end and former names are read from the regulator in the background; pending_fields names those not " +
          "read yet."
      )
  )
  .middleware(Authorization)
{}

/**
 * The operator's company routes: `filings companies sync` hands the regulator's list to a running
 * server, and `filings companies show` reads a profile, through them. They need the admin token and
 * are left out of the OpenAPI document.
 */
export class CompaniesAdminGroup extends HttpApiGroup.make("companiesAdmin")
  .add(
    HttpApiEndpoint.post("saveCompanyListing", "/admin/companies/listing")
      .setPayload(CompanyListing)
      .addSuccess(CompanyListingSaved)
      .annotate(OpenApi.Summary, "Replace the stored list of listed companies")
  )
  .add(
    HttpApiEndpoint.get("showCompany", "/admin/companies/:ticker")
      .setPath(CompanyPath)
      .addSuccess(CompanyProfile)
      .addError(ApiError.CompanyNotFoundResponse)
      .annotate(OpenApi.Summary, "One company's profile, for the operator")
  )
  .middleware(AdminAuthorization)
  .annotate(OpenApi.Exclude, true)
{}

/**
 * The operator's routes under `/admin`: upload a filing, create, list and revoke API keys, read the
 * event log, search, ask. They need the admin token, not an API key, and are left out of the OpenAPI
 * document.
 */
export class AdminGroup extends HttpApiGroup.make("admin")
  .add(
    HttpApiEndpoint.get("search", "/admin/search")
      .setUrlParams(SearchParams)
      .addSuccess(SearchResults)
      .annotate(OpenApi.Summary, "GET /v1/search for the operator (filings search through a running server)")
  )
  .add(
    HttpApiEndpoint.post("chat", "/admin/chat")
      .setPayload(ChatRequest)
      .addSuccess(ChatAnswer)
      .addError(ApiError.DocumentNotFoundResponse)
      .annotate(
        OpenApi.Summary,
        "POST /v1/chat for the operator, answered whole (filings ask through a running server)"
      )
  )
  .add(
    HttpApiEndpoint.post("ingestFile", "/admin/ingest")
      .setPayload(HttpApiSchema.Multipart(IngestUpload))
      .addSuccess(IngestResult)
      .addError(ApiError.UnreadableFilingResponse)
      .annotate(OpenApi.Summary, "Parse and store an uploaded filing")
  )
  .add(
    HttpApiEndpoint.post("createApiKey", "/admin/keys")
      .setPayload(CreateApiKeyRequest)
      .addSuccess(CreatedApiKey, { status: 201 })
      .annotate(OpenApi.Summary, "Create an API key (shown once)")
  )
  .add(
    HttpApiEndpoint.get("listApiKeys", "/admin/keys")
      .addSuccess(ApiKeyList)
      .annotate(OpenApi.Summary, "List API keys")
  )
  .add(
    HttpApiEndpoint.del("revokeApiKey", "/admin/keys/:key_id")
      .setPath(Schema.Struct({ key_id: PathId }))
      .addSuccess(ApiKeyInfo)
      .addError(ApiError.InvalidRequestResponse)
      .annotate(OpenApi.Summary, "Revoke an API key")
  )
  .add(
    HttpApiEndpoint.get("listEvents", "/admin/events")
      .setUrlParams(EventLogParams)
      .addSuccess(EventLog)
      .annotate(OpenApi.Summary, "The event log, oldest first")
  )
  .middleware(AdminAuthorization)
  .annotate(OpenApi.Exclude, true)
{}

/**
 * `GET /healthz`, without a key: `{"status": "ok"}` when the server can reach its storage, else 503
 * `service_unavailable`. `GET /metrics`: the server's metrics in the Prometheus text format, open
 * unless the operator set an admin token, which it then requires as `Authorization: Bearer`.
 */
export class SystemGroup extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/healthz")
      .addSuccess(Schema.Struct({ status: Schema.Literal("ok") }))
      .addError(ApiError.ServiceUnavailableResponse)
      .annotate(OpenApi.Summary, "Liveness and storage check")
  )
  .add(
    HttpApiEndpoint.get("metrics", "/metrics")
      .addSuccess(HttpApiSchema.Text({ contentType: "text/plain; version=0.0.4; charset=utf-8" }))
      .addError(ApiError.UnauthorizedResponse)
      .annotate(OpenApi.Summary, "Metrics in the Prometheus text format")
      .annotate(
        OpenApi.Description,
        "Requests by route and status, queues, EDGAR lag and requests, webhook attempts, model answers and " +
          "search latency. Without a key; when the server has an admin token, send it as `Authorization: Bearer`."
      )
  )
{}

/** The whole API. Errors added here can come from any endpoint. */
export class FilingsApi extends HttpApi.make("filings")
  .add(DocumentsGroup)
  .add(SectionsGroup)
  .add(SearchGroup)
  .add(StreamsGroup)
  .add(ChatGroup)
  .add(ExtractGroup)
  .add(FeedGroup)
  .add(TimelineGroup)
  .add(WebhooksGroup)
  .add(CompaniesGroup)
  .add(AdminGroup)
  .add(CompaniesAdminGroup)
  .add(SystemGroup)
  .addError(ApiError.InvalidRequestResponse)
  .addError(ApiError.PayloadTooLargeResponse)
  .addError(ApiError.InternalErrorResponse)
  .addError(ApiError.ServiceUnavailableResponse)
  .annotate(OpenApi.Transform, tidyOpenApi)
  .annotate(OpenApi.Title, "Filings API")
  .annotate(OpenApi.Version, "1.0.0")
  .annotate(
    OpenApi.Description,
    "Regulatory filings as Markdown with labeled sections, extracted metrics and tables, a feed of cited " +
      "highlights and signed webhooks."
  )
{}
