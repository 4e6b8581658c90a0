import { Redacted, Schema } from "effect"

/** Who files: the contractor itself, or its agent (GovTalk's IRheader `Sender` is then `Agent`). */
export const Filer = Schema.Literal("Contractor", "Agent")
export type Filer = typeof Filer.Type

/**
 * What HMRC made of the credentials: not used yet, accepted with a message sent with them, or
 * refused (an authentication failure: nothing more of the tenant is sent until they are replaced).
 */
export const CredentialsStatus = Schema.Literal("Unchecked", "Accepted", "Refused")
export type CredentialsStatus = typeof CredentialsStatus.Type

const GatewayUserId = Schema.Trim.pipe(
  Schema.nonEmptyString({ message: () => "The Government Gateway user id is required" }),
  Schema.maxLength(64, { message: () => "A Government Gateway user id has at most 64 characters" })
)

/** The password as it comes in: any non-empty text, redacted from the moment it is decoded. */
const Password = Schema.Redacted(
  Schema.String.pipe(
    Schema.nonEmptyString({ message: () => "The Government Gateway password is required" }),
    Schema.maxLength(128, { message: () => "A Government Gateway password has at most 128 characters" })
  )
)

/** The credentials a tenant's returns and verifications are sent to HMRC with. */
export class SenderCredentials extends Schema.Class<SenderCredentials>("SenderCredentials")({
  gatewayUserId: GatewayUserId,
  password: Password,
  filer: Schema.optionalWith(Filer, { default: () => "Contractor" as const })
}) {}

/** A tenant's credentials as stored: what it sends with, and what HMRC last made of them. */
export interface HmrcCredentials {
  readonly credentials: SenderCredentials
  readonly status: CredentialsStatus
  /** When they were set: identifies them, so that HMRC's answer counts only for the ones it was sent with. */
  readonly updatedAt: Date
}

/** The credentials as they may be shown: everything but the password. */
export interface HmrcCredentialsSummary {
  readonly gatewayUserId: string
  readonly filer: Filer
  readonly status: CredentialsStatus
  readonly updatedAt: Date
}

export const credentialsSummary = (stored: HmrcCredentials): HmrcCredentialsSummary => ({
  gatewayUserId: stored.credentials.gatewayUserId,
  filer: stored.credentials.filer,
  status: stored.status,
  updatedAt: stored.updatedAt
})

/** Credentials a test or the sandbox sends with: the local Transaction Engine takes any password but `refused`. */
export const sandboxCredentials = new SenderCredentials({
  gatewayUserId: "CISBOOKSANDBOX",
  password: Redacted.make("sandbox"),
  filer: "Contractor"
})
