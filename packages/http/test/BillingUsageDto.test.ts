import { BillingUsage, UsageSubcontractor } from "@cisbook/core/billing/billinginvoices/BillingUsage"
import { MonthlyReturnId, TenantId } from "@cisbook/core/Ids"
import { BillingUsageDto, UsageSubcontractorDto } from "@cisbook/sdk/BillingDtos"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { billingUsageDto } from "../src/dto/BillingDto.js"
import { withRealInstants } from "./RealInstants.js"

const encode = Schema.encodeSync(BillingUsageDto)

const usage = new BillingUsage({
  returnId: MonthlyReturnId.make("0197a3c4-3333-7000-8000-000000000001"),
  tenantId: TenantId.make("0197a3c4-2222-7000-8000-000000000001"),
  tenant: "lovelace",
  tenantName: "Lovelace Builders Ltd",
  periodEnd: "2026-06-05",
  acceptedAt: new Date("2026-06-10T09:00:00Z"),
  subcontractors: [new UsageSubcontractor({ contactCode: "JOHNSMIT", name: "John Smith Groundworks" })]
})

// The DTOs are built without the constructors' validation: the endpoint's encoding still checks them.
describe("billingUsageDto", () => {
  it.prop("encodes as the validated DTO does, for any usage", [withRealInstants(BillingUsage)], ([usage]) => {
    const validated = BillingUsageDto.make({
      returnId: usage.returnId,
      tenant: usage.tenant,
      tenantName: usage.tenantName,
      periodEnd: usage.periodEnd,
      acceptedAt: usage.acceptedAt,
      subcontractors: usage.subcontractors.map((s) =>
        UsageSubcontractorDto.make({ contactCode: s.contactCode, name: s.name })
      )
    })
    expect(encode(billingUsageDto(usage))).toStrictEqual(encode(validated))
  })

  it("answers the wire's JSON, and is refused on encoding when a member is not what the wire allows", () => {
    expect(encode(billingUsageDto(usage))).toStrictEqual({
      returnId: usage.returnId,
      tenant: "lovelace",
      tenantName: "Lovelace Builders Ltd",
      periodEnd: "2026-06-05",
      acceptedAt: "2026-06-10T09:00:00.000Z",
      subcontractors: [{ contactCode: "JOHNSMIT", name: "John Smith Groundworks" }]
    })
    expect(() =>
      encode(billingUsageDto(new BillingUsage({ ...usage, acceptedAt: new Date(Number.NaN) }, true)))
    ).toThrow()
    const unnamed = new UsageSubcontractor({ contactCode: "JOHNSMIT", name: null as unknown as string }, true)
    expect(() => encode(billingUsageDto(new BillingUsage({ ...usage, subcontractors: [unnamed] }, true)))).toThrow()
  })
})
