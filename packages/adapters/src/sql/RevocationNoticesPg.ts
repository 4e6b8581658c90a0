import { type RevocationNotice, RevocationNotices, RevocationNoticesLost } from "@cisbook/core/system/RevocationNotices"
import { Duration, Effect, Layer, Redacted, Schedule, Stream } from "effect"
import { Client } from "pg"
import { REVOCATION_CHANNEL } from "./RevocationChannel.js"

export interface RevocationListening {
  /** How often the listening connection is checked; a check unanswered this long counts as a lost connection. */
  readonly heartbeat: Duration.DurationInput
}

const defaults: RevocationListening = { heartbeat: Duration.seconds(10) }

/**
 * Listens on a connection of its own (LISTEN holds its session). Not PgClient's `listen`: that one
 * ignores its connection's errors, so a dropped connection would go deaf for good without a word.
 * Here an error, the connection's end or an unanswered heartbeat fails the stream.
 */
const listenAt = (url: Redacted.Redacted, { heartbeat }: RevocationListening) =>
  Stream.asyncScoped<RevocationNotice, RevocationNoticesLost>((emit) =>
    Effect.gen(function* () {
      const lost = (cause: unknown) => void emit.fail(new RevocationNoticesLost({ cause }))
      const client = yield* Effect.acquireRelease(
        Effect.sync(
          () =>
            new Client({
              connectionString: Redacted.value(url),
              application_name: "cisbook revocation listener",
              connectionTimeoutMillis: Duration.toMillis(heartbeat)
            })
        ),
        (client) =>
          Effect.promise(() => {
            client.removeAllListeners()
            client.on("error", () => undefined)
            return client.end().catch(() => undefined)
          })
      )
      client.on("error", lost)
      client.on("end", () => lost(new Error("The listening connection was closed")))
      client.on("notification", (message) => {
        if (message.channel === REVOCATION_CHANNEL) void emit.single({ _tag: "Revoked", id: message.payload ?? "" })
      })
      yield* Effect.tryPromise({
        try: async () => {
          await client.connect()
          await client.query(`LISTEN ${client.escapeIdentifier(REVOCATION_CHANNEL)}`)
        },
        catch: (cause) => new RevocationNoticesLost({ cause })
      })
      void emit.single({ _tag: "Listening" })
      yield* Effect.tryPromise({
        try: () => client.query("SELECT 1"),
        catch: (cause) => new RevocationNoticesLost({ cause })
      }).pipe(
        Effect.timeoutFail({
          duration: heartbeat,
          onTimeout: () => new RevocationNoticesLost({ cause: new Error("The listening connection stopped answering") })
        }),
        Effect.repeat(Schedule.spaced(heartbeat)),
        Effect.catchAll((error) => Effect.sync(() => lost(error.cause))),
        Effect.forkScoped
      )
    })
  )

/** Revocation notices by PostgreSQL LISTEN/NOTIFY on the database at `url`. */
export const revocationNoticesPg = (url: Redacted.Redacted, listening: RevocationListening = defaults) =>
  Layer.succeed(RevocationNotices, RevocationNotices.of({ listen: listenAt(url, listening) }))

/**
 * For the embedded database: one server process holds it, and a revocation there already takes
 * effect at once on that process, so there is no one else to hear from.
 */
export const RevocationNoticesNone = Layer.succeed(RevocationNotices, RevocationNotices.of({ listen: Stream.never }))
