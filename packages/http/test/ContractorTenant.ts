import { contactImportForm } from "@cisbook/sdk/ContactImportForm"
import { importFixture } from "@cisbook/testkit/ImportFixtures"
import { Effect } from "effect"
import * as fs from "node:fs"
import { registerCisScheme } from "./CisSchemeSetting.js"
import { signUp, uniqueTenantCode } from "./E2E.js"

/**
 * A new user's contractor tenant with its own CIS details and scheme registration, and two subcontractors verified by
 * import: JOHNSMIT (Net) and ACMEROOF (Unmatched, V9876543210/A), and BLOGGSSO, not verified.
 */
export const contractorTenant = (name: string) =>
  Effect.gen(function* () {
    const user = yield* signUp(name)
    const tenant = uniqueTenantCode(name)
    yield* user.api.tenants.createTenant({ payload: { code: tenant, name: "Lovelace Builders Ltd" } })
    yield* user.api.settings.updateCisDetails({
      path: { tenant },
      payload: { type: "Company", tradingName: "Lovelace Builders Ltd", utr: "8456789123" }
    })
    yield* registerCisScheme(user, tenant)
    yield* user.api.contactImport.importContacts({
      path: { tenant },
      payload: contactImportForm(fs.readFileSync(importFixture("excel-bom-crlf.csv")), { rowIds: [1, 3, 4] })
    })
    return { ...user, tenant }
  })
