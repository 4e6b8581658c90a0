import { Effect, Either, type Option, Schema } from "effect"
import { sendableCredentials } from "../credentials/CredentialsRequired.js"
import type { HmrcCredentials, SenderCredentials } from "../credentials/HmrcCredentials.js"
import type { Listed, SentMessage } from "./Acknowledgement.js"
import type { TaxAuthorityUnavailable } from "./TaxAuthority.js"

/**
 * Where a message stood when HMRC last said it no longer knew its correlation id (GovTalk's
 * 2000): its data request recorded it (`RecordSeen`), or recorded nothing and it was sent again
 * (`Resubmitted`). A second such answer after either holds the message.
 */
export const UnknownAnswer = Schema.Literal("RecordSeen", "Resubmitted")
export type UnknownAnswer = typeof UnknownAnswer.Type

/**
 * What a 2000 at a poll comes to: the message polled again at `endpoint` (HMRC's data request
 * records its correlation id, whatever its Status), sent again (it records nothing), or held,
 * `why` in words (a second 2000 after either, a data request HMRC refused or did not answer, or
 * none to ask without credentials HMRC takes).
 */
export type AfterUnknown =
  | { readonly _tag: "PollAgain"; readonly endpoint: string | null }
  | { readonly _tag: "SendAgain" }
  | { readonly _tag: "Hold"; readonly why: string }

/**
 * The one rule for a correlation id HMRC no longer knows, for returns and verifications alike:
 * HMRC's data request (`lookUp`, with the tenant's current credentials) is asked only once per
 * message, and only here.
 */
export const afterUnknown = (
  before: UnknownAnswer | null,
  sent: SentMessage,
  reason: string,
  current: Option.Option<HmrcCredentials>,
  lookUp: (sent: SentMessage, credentials: SenderCredentials) => Effect.Effect<Listed, TaxAuthorityUnavailable>
): Effect.Effect<AfterUnknown> =>
  Effect.gen(function* () {
    const unknown = `HMRC no longer knew its correlation id ${sent.correlationId} (${reason})`
    if (before === "RecordSeen")
      return {
        _tag: "Hold",
        why: `HMRC answered twice that it no longer knew its correlation id ${sent.correlationId} (${reason}), although its data request had recorded it in between`
      } as const
    if (before === "Resubmitted")
      return {
        _tag: "Hold",
        why: `it was sent again because HMRC's data request recorded nothing of it, and HMRC again no longer knew the correlation id ${sent.correlationId} (${reason})`
      } as const
    const credentials = sendableCredentials(current)
    if (Either.isLeft(credentials))
      return {
        _tag: "Hold",
        why: `${unknown}, and HMRC's data request could not be asked: ${credentials.left}`
      } as const
    const listed = yield* lookUp(sent, credentials.right.credentials).pipe(
      Effect.catchTag("TaxAuthorityUnavailable", (failure) =>
        Effect.succeed({ _tag: "Refused" as const, reason: failure.message })
      )
    )
    switch (listed._tag) {
      case "Recorded":
        return { _tag: "PollAgain", endpoint: sent.endpoint ?? listed.endpoint } as const
      case "NotRecorded":
        return { _tag: "SendAgain" } as const
      case "Refused":
        return { _tag: "Hold", why: `${unknown}, and refused its data request (${listed.reason})` } as const
    }
  })
