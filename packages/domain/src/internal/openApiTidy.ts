// The server answers every validation failure in the API's own envelope (`invalid_request`), so
// the framework's HttpApiDecodeError never reaches a client; this removes it from the OpenAPI
// document, where it would describe a body the API never sends.

const decodeErrorRef = "#/components/schemas/HttpApiDecodeError"
const frameworkSchemas = new Set(["HttpApiDecodeError", "Issue", "PropertyKey"])

const isDecodeErrorRef = (value: unknown): boolean =>
  typeof value === "object" && value !== null && (value as { $ref?: unknown }).$ref === decodeErrorRef

const tidy = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(tidy)
  if (typeof value !== "object" || value === null) return value
  const entries = Object.entries(value).map(([key, child]): [string, unknown] => {
    if (key === "anyOf" && Array.isArray(child)) return [key, child.filter((member) => !isDecodeErrorRef(member))]
    return [key, tidy(child)]
  })
  const tidied = Object.fromEntries(entries) as { anyOf?: ReadonlyArray<unknown> }
  // A union left with one member is that member.
  if (tidied.anyOf !== undefined && tidied.anyOf.length === 1 && Object.keys(tidied).length === 1) {
    return tidy(tidied.anyOf[0])
  }
  return tidied
}

export const dropDecodeError = (spec: Record<string, unknown>): Record<string, unknown> => {
  const tidied = tidy(spec) as Record<string, unknown> & {
    components?: { schemas?: Record<string, unknown> }
  }
  const schemas = tidied.components?.schemas
  if (schemas !== undefined) {
    tidied.components = {
      ...tidied.components,
      schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => !frameworkSchemas.has(name)))
    }
  }
  return tidied
}

// Every error body is the one envelope `{error:{code,message}}`; the document names it once, as the
// `ApiError` component, and each error response refers to it, saying which codes it carries.

const apiErrorRef = { $ref: "#/components/schemas/ApiError" }

// Answered by the router rather than by an endpoint, so no operation lists them.
const routingCodes = ["not_found", "method_not_allowed"]

interface ErrorCode {
  readonly code: string
  readonly description: string | undefined
}

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null

/** The codes of the envelopes in a response schema (one envelope, or a union of them). */
const codesOf = (schema: unknown): ReadonlyArray<ErrorCode> => {
  if (!isObject(schema)) return []
  if (Array.isArray(schema.anyOf)) return schema.anyOf.flatMap(codesOf)
  const error = isObject(schema.properties) ? schema.properties.error : undefined
  const code = isObject(error) && isObject(error.properties) ? error.properties.code : undefined
  const values = isObject(code) && Array.isArray(code.enum) ? code.enum : []
  return values.map((value) => ({
    code: String(value),
    description: typeof schema.description === "string" ? schema.description : undefined
  }))
}

const rateLimitHeaders = {
  "X-RateLimit-Limit": { $ref: "#/components/headers/X-RateLimit-Limit" },
  "X-RateLimit-Remaining": { $ref: "#/components/headers/X-RateLimit-Remaining" },
  "X-RateLimit-Reset": { $ref: "#/components/headers/X-RateLimit-Reset" }
}

const headerComponents = {
  "X-RateLimit-Limit": {
    description: "Requests the API key may make per minute",
    schema: { type: "integer" }
  },
  "X-RateLimit-Remaining": {
    description: "Requests the API key has left in the current minute",
    schema: { type: "integer" }
  },
  "X-RateLimit-Reset": {
    description: "When the current minute's window ends, in Unix seconds",
    schema: { type: "integer" }
  },
  "Retry-After": {
    description: "Seconds to wait before the next request",
    schema: { type: "integer" }
  }
}

const isAuthenticated = (operation: Json): boolean =>
  Array.isArray(operation.security) &&
  operation.security.some((requirement) => isObject(requirement) && "apiKey" in requirement)

const tidyResponse = (status: string, response: Json, authenticated: boolean, codes: Map<string, ErrorCode>) => {
  let tidied: Json = response
  if (Number(status) >= 400) {
    const content = isObject(response.content) ? response.content["application/json"] : undefined
    const found = codesOf(isObject(content) ? content.schema : undefined)
    for (const code of found) if (!codes.has(code.code)) codes.set(code.code, code)
    tidied = {
      ...response,
      ...(found.length === 0 ? {} : {
        description: found.map(({ code, description }) => `${code}: ${description ?? code}`).join("; ")
      }),
      content: { "application/json": { schema: apiErrorRef } }
    }
  }
  // A key that was refused was never charged, so a 401 carries no rate-limit headers.
  if (!authenticated || status === "401") return tidied
  const headers = {
    ...(isObject(tidied.headers) ? tidied.headers : {}),
    ...rateLimitHeaders,
    ...(status === "429" ? { "Retry-After": { $ref: "#/components/headers/Retry-After" } } : {})
  }
  return { ...tidied, headers }
}

/**
 * Points every error response at the one `ApiError` schema and declares the rate-limit headers
 * (`X-RateLimit-*` on the responses of authenticated routes, `Retry-After` on 429).
 */
export const oneErrorSchema = (spec: Record<string, unknown>): Record<string, unknown> => {
  const codes = new Map<string, ErrorCode>()
  const paths = isObject(spec.paths) ? spec.paths : {}
  const tidiedPaths = Object.fromEntries(
    Object.entries(paths).map(([path, item]) => {
      if (!isObject(item)) return [path, item]
      const operations = Object.entries(item).map(([method, operation]) => {
        if (!isObject(operation) || !isObject(operation.responses)) return [method, operation]
        const authenticated = isAuthenticated(operation)
        const responses = Object.fromEntries(
          Object.entries(operation.responses).map((
            [status, response]
          ) => [status, isObject(response) ? tidyResponse(status, response, authenticated, codes) : response])
        )
        return [method, { ...operation, responses }]
      })
      return [path, Object.fromEntries(operations)]
    })
  )
  const components = isObject(spec.components) ? spec.components : {}
  const schemas = isObject(components.schemas) ? components.schemas : {}
  const apiError = {
    type: "object",
    description: "The body of every error response",
    required: ["error"],
    properties: {
      error: {
        type: "object",
        required: ["code", "message"],
        properties: {
          code: { type: "string", enum: [...new Set([...codes.keys(), ...routingCodes])] },
          message: { type: "string", description: "What went wrong, naming the field or id at fault" }
        },
        additionalProperties: false
      }
    },
    additionalProperties: false
  }
  return {
    ...spec,
    paths: tidiedPaths,
    components: {
      ...components,
      schemas: { ...schemas, ApiError: apiError },
      headers: { ...(isObject(components.headers) ? components.headers : {}), ...headerComponents }
    }
  }
}

/**
 * The scheme of an API key given in the query string, which only the routes a browser's EventSource
 * opens accept (it cannot send headers); they name it in their `security` themselves.
 */
export const queryKeyScheme = "apiKeyQuery"

/** Declares the query-string key scheme, which no middleware declares. */
export const declareQueryKey = (spec: Record<string, unknown>): Record<string, unknown> => {
  const components = isObject(spec.components) ? spec.components : {}
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {}
  return {
    ...spec,
    components: {
      ...components,
      securitySchemes: {
        ...schemes,
        [queryKeyScheme]: {
          type: "apiKey",
          in: "query",
          name: "api_key",
          description: "The API key in the query string, for clients that cannot send Authorization (EventSource)"
        }
      }
    }
  }
}

/** The tidying the API's document gets: the framework's decode error out, one error schema in. */
export const tidyOpenApi = (spec: Record<string, unknown>): Record<string, unknown> =>
  declareQueryKey(oneErrorSchema(dropDecodeError(spec)))
