/**
 * The routes of the API as (method, path pattern) pairs: to tell apart a request no route matched,
 * an unknown path (404) from a known path asked with the wrong method (405), and to name the route
 * a request took in metrics by its pattern (`/v1/documents/:publication_id`), never its raw path.
 * Also the settings of the router that matches them.
 */
import { HttpRouter } from "@effect/platform"
import { Api } from "@filings/domain"

interface Route {
  readonly method: string
  readonly path: string
  readonly pattern: RegExp
  /** Parameters in the path: where two patterns match, the one with fewer is the literal route. */
  readonly parameters: number
}

const toPattern = (path: string): RegExp =>
  new RegExp(
    "^" + path.split("/").map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/") +
      "/?$"
  )

const routes: ReadonlyArray<Route> = Object.values(Api.FilingsApi.groups).flatMap((group) =>
  Object.values(group.endpoints).map((endpoint) => ({
    method: endpoint.method,
    path: endpoint.path,
    pattern: toPattern(endpoint.path),
    parameters: endpoint.path.split("/").filter((part: string) => part.startsWith(":")).length
  }))
).sort((a, b) => a.parameters - b.parameters)

/** Served beside the API: the OpenAPI document and its docs page. */
const documentation = new Set(["/openapi.json", "/docs"])

/** The methods the API accepts on this path; empty when no route has the path. */
export const allowedMethods = (pathname: string): ReadonlyArray<string> => [
  ...new Set(routes.filter((route) => route.pattern.test(pathname)).map((route) => route.method))
]

/** The pattern of the route `method pathname` takes; `unmatched` for a 404 or 405. */
export const routeOf = (method: string, pathname: string): string => {
  if (documentation.has(pathname)) return pathname
  return routes.find((route) => route.method === method && route.pattern.test(pathname))?.path ?? "unmatched"
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
