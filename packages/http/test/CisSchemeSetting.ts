import { Effect } from "effect"
import type { Client } from "@cisbook/sdk/Client"

/** HMRC's sample references: a scheme every test tenant may file under. */
export const sampleScheme = { employerReference: "123/AB45678", accountsOfficeReference: "123PW12345678" }

/** Government Gateway credentials the sandbox's Transaction Engine takes. */
export const sandboxGateway = { gatewayUserId: "CISBOOKSANDBOX", password: "sandbox" }

/**
 * Sets the tenant's CIS scheme registration and its HMRC credentials (the sandbox's), as a
 * contractor must before it files or verifies.
 */
export const registerCisScheme = (user: { readonly api: Client }, tenant: string) =>
  user.api.settings
    .updateCisScheme({ path: { tenant }, payload: sampleScheme })
    .pipe(Effect.zipLeft(user.api.settings.updateHmrcCredentials({ path: { tenant }, payload: sandboxGateway })))
