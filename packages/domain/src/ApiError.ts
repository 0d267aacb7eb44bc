/**
 * The errors of the HTTP API. Each is a tagged error that handlers can `yield*`, and each travels
 * on the wire as the envelope `{"error": {"code", "message"}}` with its own status and code, so a
 * client decodes the same classes the server failed with.
 *
 * @module
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/**
 * Builds the wire form of an error class: the envelope with a literal `code`, annotated with the
 * HTTP status. The literal code keeps the encoded shapes distinct, which HttpApi relies on to pick
 * the right status when it encodes a failure through the union of all error schemas.
 */
const onTheWire = <Self extends { readonly message: string }, Tag extends string>(
  errorClass: Schema.Schema<Self, { readonly _tag: Tag; readonly message: string }>,
  tag: Tag,
  code: string,
  status: number,
  description: string
) =>
  Schema.transform(
    Schema.Struct({ error: Schema.Struct({ code: Schema.Literal(code), message: Schema.String }) }),
    errorClass,
    {
      strict: true,
      decode: (envelope) => ({ _tag: tag, message: envelope.error.message }),
      encode: (error) => ({ error: { code, message: error.message } })
    }
  ).annotations(HttpApiSchema.annotations({ status, description }))

/** 400: a malformed parameter or body, or a missing required one; the message names the field. */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", {
  message: Schema.String
}) {}
/**
 * {@link InvalidRequest} on the wire: status 400, body `{"error": {"code": "invalid_request", "message"}}`.
 * Each `...Response` schema decodes its envelope back into the error class.
 *
 * @example
 * import { ApiError } from "@filings/domain"
 * import { Schema } from "effect"
 *
 * const error = Schema.decodeUnknownSync(ApiError.InvalidRequestResponse)({
 *   error: { code: "invalid_request", message: "tickers is missing" }
 * })
 * error instanceof ApiError.InvalidRequest // true
 */
export const InvalidRequestResponse = onTheWire(
  InvalidRequest,
  "InvalidRequest",
  "invalid_request",
  400,
  "A parameter or field is malformed or missing; the message names it"
)

/** 401: no API key, or one that is unknown or revoked. */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {
  message: Schema.String
}) {}
/** {@link Unauthorized} on the wire: status 401, body `{"error": {"code": "unauthorized", "message"}}`. */
export const UnauthorizedResponse = onTheWire(
  Unauthorized,
  "Unauthorized",
  "unauthorized",
  401,
  "Missing or invalid API key"
)

/** 404: no document has this publication id. */
export class DocumentNotFound extends Schema.TaggedError<DocumentNotFound>()("DocumentNotFound", {
  message: Schema.String
}) {
  /**
   * The error for an unknown publication id, with the message that names it.
   *
   * @example
   * import { ApiError } from "@filings/domain"
   *
   * ApiError.DocumentNotFound.forId("0000320193-24-000123").message
   * // "no document with publication_id 0000320193-24-000123"
   */
  static forId(publicationId: string): DocumentNotFound {
    return new DocumentNotFound({ message: `no document with publication_id ${publicationId}` })
  }
}
/** {@link DocumentNotFound} on the wire: status 404, body `{"error": {"code": "document_not_found", "message"}}`. */
export const DocumentNotFoundResponse = onTheWire(
  DocumentNotFound,
  "DocumentNotFound",
  "document_not_found",
  404,
  "No document has this publication_id"
)

/** 404: no company the service knows has this ticker (in the regulator's list or its stored documents). */
export class CompanyNotFound extends Schema.TaggedError<CompanyNotFound>()("CompanyNotFound", {
  message: Schema.String
}) {
  /**
   * The error for an unknown ticker, with the message that names it.
   *
   * @example
   * import { ApiError } from "@filings/domain"
   *
   * ApiError.CompanyNotFound.forTicker("ZZZZ").message
   * // "no company with ticker ZZZZ"
   */
  static forTicker(ticker: string): CompanyNotFound {
    return new CompanyNotFound({ message: `no company with ticker ${ticker}` })
  }
}
/** {@link CompanyNotFound} on the wire: status 404, body `{"error": {"code": "company_not_found", "message"}}`. */
export const CompanyNotFoundResponse = onTheWire(
  CompanyNotFound,
  "CompanyNotFound",
  "company_not_found",
  404,
  "No company is known by this ticker"
)

/** 404: the document has no exhibit with this number. */
export class ExhibitNotFound extends Schema.TaggedError<ExhibitNotFound>()("ExhibitNotFound", {
  message: Schema.String
}) {}
/** {@link ExhibitNotFound} on the wire: status 404, body `{"error": {"code": "exhibit_not_found", "message"}}`. */
export const ExhibitNotFoundResponse = onTheWire(
  ExhibitNotFound,
  "ExhibitNotFound",
  "exhibit_not_found",
  404,
  "The document has no exhibit with this number"
)

/** 404: the document has no section of this name; the message lists the sections it has. */
export class SectionNotFound extends Schema.TaggedError<SectionNotFound>()("SectionNotFound", {
  message: Schema.String
}) {}
/** {@link SectionNotFound} on the wire: status 404, body `{"error": {"code": "section_not_found", "message"}}`. */
export const SectionNotFoundResponse = onTheWire(
  SectionNotFound,
  "SectionNotFound",
  "section_not_found",
  404,
  "The document has no such section; the message lists those it has"
)

/** 404: the document has no chunk with this id. */
export class ChunkNotFound extends Schema.TaggedError<ChunkNotFound>()("ChunkNotFound", {
  message: Schema.String
}) {}
/** {@link ChunkNotFound} on the wire: status 404, body `{"error": {"code": "chunk_not_found", "message"}}`. */
export const ChunkNotFoundResponse = onTheWire(
  ChunkNotFound,
  "ChunkNotFound",
  "chunk_not_found",
  404,
  "The document has no chunk with this id"
)

/** 404: the subscription has no delivery with this id. */
export class DeliveryNotFound extends Schema.TaggedError<DeliveryNotFound>()("DeliveryNotFound", {
  message: Schema.String
}) {}
/** {@link DeliveryNotFound} on the wire: status 404, body `{"error": {"code": "delivery_not_found", "message"}}`. */
export const DeliveryNotFoundResponse = onTheWire(
  DeliveryNotFound,
  "DeliveryNotFound",
  "delivery_not_found",
  404,
  "The subscription has no delivery with this id"
)

/** 404: no webhook subscription has this id. */
export class WebhookNotFound extends Schema.TaggedError<WebhookNotFound>()("WebhookNotFound", {
  message: Schema.String
}) {}
/** {@link WebhookNotFound} on the wire: status 404, body `{"error": {"code": "webhook_not_found", "message"}}`. */
export const WebhookNotFoundResponse = onTheWire(
  WebhookNotFound,
  "WebhookNotFound",
  "webhook_not_found",
  404,
  "No webhook subscription has this id"
)

/** 404: no route matches the path. */
export class RouteNotFound extends Schema.TaggedError<RouteNotFound>()("RouteNotFound", {
  message: Schema.String
}) {}
/** {@link RouteNotFound} on the wire: status 404, body `{"error": {"code": "not_found", "message"}}`. */
export const RouteNotFoundResponse = onTheWire(RouteNotFound, "RouteNotFound", "not_found", 404, "No such route")

/** 405: the path exists, but not with this method. */
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", {
  message: Schema.String
}) {}
/** {@link MethodNotAllowed} on the wire: status 405, body `{"error": {"code": "method_not_allowed", "message"}}`. */
export const MethodNotAllowedResponse = onTheWire(
  MethodNotAllowed,
  "MethodNotAllowed",
  "method_not_allowed",
  405,
  "The route does not accept this method"
)

/**
 * 413: the request body is larger than the server takes (`FILINGS_MAX_BODY_BYTES`, or
 * `FILINGS_MAX_UPLOAD_BYTES` on the operator's upload routes); the message names the limit. The
 * server closes the connection after this answer rather than read the rest of the body.
 */
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", {
  message: Schema.String
}) {}
/** {@link PayloadTooLarge} on the wire: status 413, body `{"error": {"code": "payload_too_large", "message"}}`. */
export const PayloadTooLargeResponse = onTheWire(
  PayloadTooLarge,
  "PayloadTooLarge",
  "payload_too_large",
  413,
  "The request body is larger than the server takes; the message names the limit"
)

/** 429: the API key used up its requests for the current minute; `Retry-After` says when to retry. */
export class RateLimitExceeded extends Schema.TaggedError<RateLimitExceeded>()("RateLimitExceeded", {
  message: Schema.String
}) {}
/** {@link RateLimitExceeded} on the wire: status 429, body `{"error": {"code": "rate_limit_exceeded", "message"}}`. */
export const RateLimitExceededResponse = onTheWire(
  RateLimitExceeded,
  "RateLimitExceeded",
  "rate_limit_exceeded",
  429,
  "Too many requests; wait for the number of seconds in Retry-After"
)

/** 500: an unexpected failure. The message never carries internals; the server log has the details. */
export class InternalError extends Schema.TaggedError<InternalError>()("InternalError", {
  message: Schema.String
}) {}
/** {@link InternalError} on the wire: status 500, body `{"error": {"code": "internal_error", "message"}}`. */
export const InternalErrorResponse = onTheWire(
  InternalError,
  "InternalError",
  "internal_error",
  500,
  "Unexpected failure"
)

/** 503: storage or the queue cannot be reached; `Retry-After` says when to try again. */
export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()("ServiceUnavailable", {
  message: Schema.String
}) {}
/** {@link ServiceUnavailable} on the wire: status 503, body `{"error": {"code": "service_unavailable", "message"}}`. */
export const ServiceUnavailableResponse = onTheWire(
  ServiceUnavailable,
  "ServiceUnavailable",
  "service_unavailable",
  503,
  "Storage or queue unreachable; retry after the number of seconds in Retry-After"
)

/** The file given to ingest could not be read as a filing, or does not say enough about itself. */
export class UnreadableFiling extends Schema.TaggedError<UnreadableFiling>()("UnreadableFiling", {
  message: Schema.String
}) {}
/** {@link UnreadableFiling} on the wire: status 422, body `{"error": {"code": "unreadable_filing", "message"}}`. */
export const UnreadableFilingResponse = onTheWire(
  UnreadableFiling,
  "UnreadableFiling",
  "unreadable_filing",
  422,
  "The uploaded file could not be read as a filing"
)
