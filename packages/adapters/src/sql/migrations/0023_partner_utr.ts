import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // A partnership's nominated partner's own UTR: HMRC verifies a partnership through the partner
  // (the firm's UTR stays in cis_utr). Tenant CIS details, verification requests and return lines
  // hold CisDetails as jsonb, where an absent partnerUtr reads as null.
  yield* sql`ALTER TABLE contacts ADD COLUMN cis_partner_utr text`
})
