/**
 * The routes of the API as (method, path pattern) pairs, so that a request no route matched can be
 * told apart: an unknown path (404) from a known path asked with the wrong method (405).
 */
import { Api } from "@filings/domain"

interface Route {
  readonly method: string
  readonly pattern: RegExp
}

const toPattern = (path: string): RegExp =>
  new RegExp(
    "^" + path.split("/").map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/") +
      "/?$"
  )

const routes: ReadonlyArray<Route> = Object.values(Api.FilingsApi.groups).flatMap((group) =>
  Object.values(group.endpoints).map((endpoint) => ({ method: endpoint.method, pattern: toPattern(endpoint.path) }))
)

/** The methods the API accepts on this path; empty when no route has the path. */
export const allowedMethods = (pathname: string): ReadonlyArray<string> => [
  ...new Set(routes.filter((route) => route.pattern.test(pathname)).map((route) => route.method))
]
