import { Effect, Option } from "effect"
import type { BillingAddress } from "./BillingAddress.js"
import { BillingAddressInput, type BillingAddressReplacement } from "./BillingAddressInput.js"
import type { BillingProfile } from "./BillingProfile.js"
import type { MandateStatus } from "./MandateStatus.js"
import type { ValidationFailed } from "../../Errors.js"
import { BillingProfileRepo } from "./BillingProfileRepo.js"
import { Clock } from "../../system/Clock.js"
import { MandateRepo } from "./MandateRepo.js"
import { CurrentUser } from "../../users/CurrentUser.js"
import type { User } from "../../users/User.js"
import { decodeInput } from "../../Validation.js"

const decodeAddress = decodeInput(BillingAddressInput)

/** The calling user's billing profile: their address, and their mandate's status. */
export class BillingProfiles extends Effect.Service<BillingProfiles>()("core/BillingProfiles", {
  effect: Effect.gen(function* () {
    const profiles = yield* BillingProfileRepo
    const mandates = yield* MandateRepo
    const clock = yield* Clock

    const mandateStatus = (user: User): Effect.Effect<MandateStatus> =>
      Effect.all([mandates.latest(user.id), clock.now]).pipe(
        Effect.map(([latest, now]) =>
          Option.match(latest, { onNone: () => "NotStarted" as const, onSome: (m) => m.statusAt(now) })
        )
      )

    const get = (): Effect.Effect<BillingProfile, never, CurrentUser> =>
      CurrentUser.pipe(
        Effect.flatMap(({ user }) => Effect.all({ address: profiles.get(user.id), mandateStatus: mandateStatus(user) }))
      )

    /** Replaces the address whole; the mandate is untouched. */
    const put = (input: BillingAddressReplacement): Effect.Effect<BillingProfile, ValidationFailed, CurrentUser> =>
      Effect.gen(function* () {
        const { user } = yield* CurrentUser
        const address: BillingAddress = yield* decodeAddress(input)
        yield* profiles.put(user.id, address, yield* clock.now)
        return { address: Option.some(address), mandateStatus: yield* mandateStatus(user) }
      }).pipe(Effect.withSpan("BillingProfiles.put"))

    return { get, put } as const
  })
}) {}
