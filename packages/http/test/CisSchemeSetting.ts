import type { Client } from "@cisbook/sdk/Client"

/** HMRC's sample references: a scheme every test tenant may file under. */
export const sampleScheme = { employerReference: "123/AB45678", accountsOfficeReference: "123PW12345678" }

/** Sets the tenant's CIS scheme registration, as a contractor must before it files or verifies. */
export const registerCisScheme = (user: { readonly api: Client }, tenant: string) =>
  user.api.settings.updateCisScheme({ path: { tenant }, payload: sampleScheme })
