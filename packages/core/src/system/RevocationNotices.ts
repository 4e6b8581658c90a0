import { Context, Data, type Stream } from "effect"

/** The notices stopped coming (the connection they came on was lost); listen again. */
export class RevocationNoticesLost extends Data.TaggedError("RevocationNoticesLost")<{ readonly cause: unknown }> {}

/**
 * `Listening` when the listening starts (a revocation made before it may have been missed), then
 * `Revoked` for each credential revoked by any server process, once the revocation is committed.
 */
export type RevocationNotice =
  { readonly _tag: "Listening" } | { readonly _tag: "Revoked"; /** The revoked credential's id. */ readonly id: string }

/** Word of revoked credentials from every server process that shares the database. */
export class RevocationNotices extends Context.Tag("core/RevocationNotices")<
  RevocationNotices,
  { readonly listen: Stream.Stream<RevocationNotice, RevocationNoticesLost> }
>() {}
