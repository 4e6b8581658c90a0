import { CisScheme } from "@cisbook/core/cis/CisScheme"
import { Schema } from "effect"

const scheme = Schema.decodeUnknownSync(CisScheme)

/** A contractor's PAYE scheme with HMRC's own sample references (its reference checker's valid example). */
export const sampleCisScheme = scheme({ employerReference: "123/AB45678", accountsOfficeReference: "123PW12345678" })

/** Another valid scheme, for a test that replaces one. */
export const otherCisScheme = scheme({ employerReference: "450/Z9", accountsOfficeReference: "450PE00923437" })

/** Government Gateway credentials as a PUT gives them: the sandbox (and TaxAuthorityFake) take them. */
export const sandboxGateway = { gatewayUserId: "CISBOOKSANDBOX", password: "sandbox" }
