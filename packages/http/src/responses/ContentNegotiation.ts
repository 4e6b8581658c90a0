import Negotiator from "negotiator"

/** The media type the Accept header prefers among `offered`; the first one offered when it names none of them. */
export const preferredMediaType = <const T extends string>(
  accept: string | undefined,
  offered: readonly [T, ...ReadonlyArray<T>]
): T => {
  const negotiator = new Negotiator({ headers: accept === undefined ? {} : { accept } })
  return (negotiator.mediaType([...offered]) as T | undefined) ?? offered[0]
}
