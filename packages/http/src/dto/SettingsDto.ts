import type { CisDetails } from "@cisbook/core/cis/CisDetails"
import type { SchemeRegistration } from "@cisbook/core/cis/SchemeRegistration"
import type { HmrcCredentialsSummary } from "@cisbook/core/credentials/HmrcCredentials"
import { CisSchemeDto, HmrcCredentialsDto, TenantCisDetailsDto } from "@cisbook/sdk/SettingsDtos"
import { Option } from "effect"

const unset = new TenantCisDetailsDto({
  type: null,
  title: null,
  firstName: null,
  secondName: null,
  lastName: null,
  tradingName: null,
  utr: null,
  niNumber: null,
  companyNumber: null,
  partnerUtr: null
})

export const cisDetailsDto = (details: CisDetails) => new TenantCisDetailsDto({ ...details })

/** The tenant's CIS details, every member null while none are set. */
export const cisDetailsOrUnsetDto = Option.match({ onNone: () => unset, onSome: cisDetailsDto })

const noScheme = new CisSchemeDto({ employerReference: null, accountsOfficeReference: null, registeredFrom: null })

export const cisSchemeDto = ({ registeredFrom, scheme }: SchemeRegistration) =>
  new CisSchemeDto({ ...scheme, registeredFrom })

/** The tenant's CIS scheme registration, every member null while none is set. */
export const cisSchemeOrNoneDto = Option.match({ onNone: () => noScheme, onSome: cisSchemeDto })

export const hmrcCredentialsDto = (summary: HmrcCredentialsSummary) => new HmrcCredentialsDto({ ...summary })

/** The tenant's HMRC credentials, or null while it has none. */
export const hmrcCredentialsOrNullDto = Option.match({ onNone: () => null, onSome: hmrcCredentialsDto })
