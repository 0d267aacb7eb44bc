// Decoded rows kept by key and row version, so a page of a list query reads only each row's key and
// version and decodes a row again only when it changed. The version is the row's `xmin`, the
// transaction that wrote this version of the row: every insert or update gives a new one, on every
// instance alike, so a kept row is served only while it is exactly what the table holds (no time to
// live, nothing to invalidate). The same kept object comes back for an unchanged row, which lets the
// server keep what it derives from a row (its encoded JSON) beside it.
import { Effect } from "effect"

/** A row's key and version, as the list query reads them: `publication_id`, `xmin::text AS version`. */
export interface RowVersion {
  readonly key: string
  readonly version: string
}

/** Rows kept at most; the ones kept first go first. */
export const DefaultCapacity = 20_000

export const makeVersionedRows = <A>(capacity = DefaultCapacity) => {
  // A Map iterates in insertion order, so its first entries are the oldest.
  const kept = new Map<string, { readonly version: string; readonly row: A }>()

  const keep = (key: string, version: string, row: A) => {
    kept.delete(key)
    kept.set(key, { version, row })
    if (kept.size > capacity) {
      const oldest = kept.keys().next()
      if (oldest.done !== true) kept.delete(oldest.value)
    }
  }

  /**
   * The rows of `page` in its order: kept ones where their version is current, the others read
   * with `readRows` (each with its key and version) in one go and kept. A row gone between the two
   * reads is left out.
   */
  const rowsOf = <E, R>(
    page: ReadonlyArray<RowVersion>,
    readRows: (keys: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<RowVersion & { readonly row: A }>, E, R>
  ): Effect.Effect<ReadonlyArray<A>, E, R> => {
    const stale = page.filter(({ key, version }) => kept.get(key)?.version !== version).map(({ key }) => key)
    if (stale.length === 0) return Effect.succeed(page.map(({ key }) => kept.get(key)!.row))
    return Effect.map(readRows(stale), (read) => {
      const fresh = new Map<string, A>()
      for (const { key, row, version } of read) {
        keep(key, version, row)
        fresh.set(key, row)
      }
      return page.flatMap(({ key }) => {
        const row = fresh.get(key) ?? kept.get(key)?.row
        return row === undefined ? [] : [row]
      })
    })
  }

  return { rowsOf }
}
