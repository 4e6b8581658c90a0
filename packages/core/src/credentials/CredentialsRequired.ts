import { Either, Option } from "effect"
import { Verification } from "../contacts/Contact.js"
import { ValidationFailed } from "../Errors.js"
import type { HmrcCredentials } from "./HmrcCredentials.js"

const SET_THEM =
  "HMRC takes returns and verifications only with the contractor's own Government Gateway credentials (or its agent's): set the tenant's HMRC credentials first."

/** The problem of a return or verification asked for while the tenant has no HMRC credentials. */
export const credentialsRequired = ValidationFailed.one("hmrcCredentials", SET_THEM)

/** What a verification started by taking a subcontractor on ends as when the tenant has no HMRC credentials. */
export const credentialsNeededVerification = new Verification({
  status: "Error",
  verificationNumber: null,
  taxTreatment: null,
  verifiedAt: null,
  source: "Hmrc",
  message: `${SET_THEM} Then verify the subcontractor again.`
})

/** Why a return is held, or a verification waits: HMRC refused the tenant's credentials (its words follow). */
export const heldReason = (refusal: string) =>
  `HMRC refused the tenant's Government Gateway credentials (${refusal}). Nothing more is sent to HMRC for the tenant until its HMRC credentials are replaced; then this is sent again.`

/** Why a return is held: the tenant's HMRC credentials were removed before it was sent. */
export const noCredentialsReason =
  "The tenant has no HMRC credentials to send this with. It is sent as soon as the tenant's HMRC credentials are set."

/** What a held verification shows on the contact: still not verified, and why. */
export const heldVerification = (reason: string) =>
  new Verification({
    status: "NotVerified",
    verificationNumber: null,
    taxTreatment: null,
    verifiedAt: null,
    source: "Hmrc",
    message: reason
  })

/**
 * The credentials a tenant's next message may be sent with; or, when it has none or HMRC refused
 * them, why nothing may be sent for it until they are replaced.
 */
export const sendableCredentials = (found: Option.Option<HmrcCredentials>): Either.Either<HmrcCredentials, string> =>
  Option.match(found, {
    onNone: () => Either.left(noCredentialsReason),
    onSome: (stored) =>
      stored.status === "Refused"
        ? Either.left(heldReason("a message sent with them failed HMRC's authentication"))
        : Either.right(stored)
  })
