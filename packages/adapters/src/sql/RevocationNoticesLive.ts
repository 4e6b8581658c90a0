import { Effect, Layer } from "effect"
import { DatabaseConfig } from "./DatabaseConfig.js"
import { revocationNoticesPg, RevocationNoticesNone } from "./RevocationNoticesPg.js"

/** Notices by LISTEN/NOTIFY on the PostgreSQL at DATABASE_URL; none on the embedded database, which one process holds. */
export const RevocationNoticesLive = Layer.unwrapEffect(
  Effect.map(DatabaseConfig, (choice) =>
    choice._tag === "Server" ? revocationNoticesPg(choice.url) : RevocationNoticesNone
  )
)
