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
