/** Where a list page starts: after (older than) or before (newer than) an item, and how many. */
export interface Page {
  readonly after?: string | undefined
  readonly before?: string | undefined
  readonly limit: number
}

/** A page of a list and GoCardless's cursors around it (null where there is nothing more). */
export interface Paged<A> {
  readonly items: ReadonlyArray<A>
  readonly cursors: { readonly before: string | null; readonly after: string | null }
}

export const DEFAULT_LIMIT = 50
export const MAX_LIMIT = 500

export type Query = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/** One value of a query parameter (the last, when sent twice). */
export const queryValue = (query: Query, name: string): string | undefined => {
  const value = query[name]
  const one = typeof value === "string" ? value : value?.[value.length - 1]
  return one === undefined || one === "" ? undefined : one
}

/** The values of a filter, which GoCardless takes comma separated (`status=failed,cancelled`). */
export const queryValues = (query: Query, name: string): ReadonlyArray<string> | undefined =>
  queryValue(query, name)
    ?.split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "")

/** The page a list request asks for, or what is wrong with its paging parameters. */
export const pageOf = (query: Query): Page | { readonly field: string; readonly message: string } => {
  const after = queryValue(query, "after")
  const before = queryValue(query, "before")
  const limitText = queryValue(query, "limit")
  if (after !== undefined && before !== undefined) {
    return { field: "before", message: "cannot be used together with after" }
  }
  if (limitText === undefined) return { after, before, limit: DEFAULT_LIMIT }
  const limit = Number(limitText)
  if (!/^\d+$/.test(limitText) || limit < 1 || limit > MAX_LIMIT) {
    return { field: "limit", message: `must be a whole number from 1 to ${MAX_LIMIT}` }
  }
  return { after, before, limit }
}
