/**
 * The routes of the API as (method, path pattern) pairs: to tell apart a request no route matched,
 * an unknown path (404) from a known path asked with the wrong method (405), to name the route
 * a request took in metrics by its pattern (`/v1/documents/:publication_id`), never its raw path,
 * and to say what body a route takes when a request's body was refused. Also the settings of the
 * router that matches them.
 */
import { type HttpApiEndpoint, HttpApiSchema, HttpRouter } from "@effect/platform"
import { Api } from "@filings/domain"
import { Option } from "effect"

/** The body a route reads: JSON, or a multipart form (an uploaded file). */
export type BodyKind = "json" | "multipart"

interface Route {
  readonly method: string
  readonly path: string
  readonly pattern: RegExp
  /** The names of the parameters in the path (`publication_id`). */
  readonly pathParameters: ReadonlyArray<string>
  /** Parameters in the path: where two patterns match, the one with fewer is the literal route. */
  readonly parameters: number
  readonly body: BodyKind | undefined
}

const toPattern = (path: string): RegExp =>
  new RegExp(
    "^" + path.split("/").map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/") +
      "/?$"
  )

const routes: ReadonlyArray<Route> = Object.values(Api.FilingsApi.groups).flatMap((group) =>
  Object.values(group.endpoints).map((endpoint) => {
    const pathParameters = endpoint.path.split("/").filter((part: string) => part.startsWith(":"))
      .map((part: string) => part.slice(1))
    return {
      method: endpoint.method,
      path: endpoint.path,
      pattern: toPattern(endpoint.path),
      pathParameters,
      parameters: pathParameters.length,
      body: Option.match((endpoint as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps).payloadSchema, {
        onNone: () => undefined,
        onSome: ({ ast }): BodyKind => HttpApiSchema.getMultipart(ast) === undefined ? "json" : "multipart"
      })
    }
  })
).sort((a, b) => a.parameters - b.parameters)

const routeTaken = (method: string, pathname: string): Route | undefined =>
  routes.find((route) => route.method === method && route.pattern.test(pathname))

/** Served beside the API: the OpenAPI document and its docs page. */
const documentation = new Set(["/openapi.json", "/docs"])

/** The methods the API accepts on this path; empty when no route has the path. */
export const allowedMethods = (pathname: string): ReadonlyArray<string> => [
  ...new Set(routes.filter((route) => route.pattern.test(pathname)).map((route) => route.method))
]

/** The pattern of the route `method pathname` takes; `unmatched` for a 404 or 405. */
export const routeOf = (method: string, pathname: string): string => {
  if (documentation.has(pathname)) return pathname
  return routeTaken(method, pathname)?.path ?? "unmatched"
}

/**
 * The body the route of `method pathname` reads, with the names of its path parameters (whose
 * failures are not the body's); undefined when the route reads none.
 */
export const bodyOf = (
  method: string,
  pathname: string
): { readonly kind: BodyKind; readonly pathParameters: ReadonlyArray<string> } | undefined => {
  const route = routeTaken(method, pathname)
  return route?.body === undefined ? undefined : { kind: route.body, pathParameters: route.pathParameters }
}

/**
 * How the router matches paths. A path parameter of any length reaches its route, whose schema
 * judges it (the request line is bounded by Node's header size limit): the router's default, 100
 * characters, turned a long id into a 405 that named the very method it refused. Two slashes stay
 * two: `/v1/webhooks//deliveries` is a route with an empty id, refused as such, not the lookup of a
 * subscription named `deliveries`.
 */
export const routerConfig = HttpRouter.setRouterConfig({
  maxParamLength: Number.MAX_SAFE_INTEGER,
  ignoreDuplicateSlashes: false
})
