import { BillingTermsLive } from "@cisbook/adapters/billing/BillingTermsLive"
import { DocumentRendererPdf } from "@cisbook/adapters/documents/DocumentRendererPdf"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { SqlPortsLive } from "@cisbook/adapters/sql/SqlPortsLive"
import { SystemLive } from "@cisbook/adapters/system/SystemLive"
import { TaxAuthorityMemory } from "@cisbook/testkit/TaxAuthorityFake"
import { FilingCheckMemory } from "@cisbook/testkit/FilingCheckMemory"
import { webhookTransport } from "@cisbook/adapters/webhooks/WebhookTransportLive"
import { Email } from "@cisbook/core/Email"
import { ContactId, MonthlyReturnId, type TenantId } from "@cisbook/core/Ids"
import {
  DirectDebit,
  type DirectDebitRefused,
  type NewPayment,
  type ProviderPayment
} from "@cisbook/core/billing/mandates/DirectDebit"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { MonthlyReturnRepo } from "@cisbook/core/returns/MonthlyReturnRepo"
import { MonthlyReturn, ReturnContractor, ReturnLine } from "@cisbook/core/returns/MonthlyReturn"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { UseCasesLive } from "@cisbook/core/UseCases"
import { ProviderEventSignatureFake } from "@cisbook/testkit/ProviderEventSignatureFake"
import type { User } from "@cisbook/core/users/User"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { Users } from "@cisbook/core/users/Users"
import { AppLinksFake } from "@cisbook/testkit/AppLinksFake"
import { DirectDebitFake } from "@cisbook/testkit/DirectDebitFake"
import { identityVerifierFake } from "@cisbook/testkit/IdentityVerifierFake"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Ref } from "effect"
import { asUser } from "@cisbook/core/users/ActingAs"
import { storedDeclarations } from "@cisbook/testkit/DeclarationsFixtures"

type CreatePayment = (payment: NewPayment, key: string) => Effect.Effect<ProviderPayment, DirectDebitRefused>
type GetPayment = (id: string) => Effect.Effect<ProviderPayment, DirectDebitRefused>
type ListPayments = (mandateId: string) => Effect.Effect<ReadonlyArray<ProviderPayment>, DirectDebitRefused>

export interface Faults {
  readonly createPayment: (real: CreatePayment) => CreatePayment
  readonly getPayment: (real: GetPayment) => GetPayment
  readonly listPayments: (real: ListPayments) => ListPayments
}

/** Lets a test put a fault between the service and the in-memory provider (a crash, a hang). */
export class ProviderFaults extends Effect.Service<ProviderFaults>()("test/ProviderFaults", {
  effect: Effect.map(
    Ref.make<Faults>({ createPayment: (real) => real, getPayment: (real) => real, listPayments: (real) => real }),
    (faults) => ({ faults })
  )
}) {}

const FaultyDirectDebit = Layer.effect(
  DirectDebit,
  Effect.gen(function* () {
    const real = yield* DirectDebit
    const { faults } = yield* ProviderFaults
    return DirectDebit.of({
      ...real,
      createPayment: (payment, key) =>
        Effect.flatMap(Ref.get(faults), (f) => f.createPayment(real.createPayment)(payment, key)),
      getPayment: (id) => Effect.flatMap(Ref.get(faults), (f) => f.getPayment(real.getPayment)(id)),
      listPayments: (mandateId) => Effect.flatMap(Ref.get(faults), (f) => f.listPayments(real.listPayments)(mandateId))
    })
  })
).pipe(Layer.provideMerge(Layer.merge(DirectDebitFake, ProviderFaults.Default)))

/**
 * Every use case with the billing ones over a throwaway database (PostgreSQL when
 * CISBOOK_TEST_DATABASE_URL is set), the in-memory provider behind ProviderFaults, real PDFs.
 */
export const BillingOverSql = UseCasesLive.pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      SqlPortsLive,
      identityVerifierFake({}),
      webhookTransport({ allowPrivateTargets: false }),
      TaxAuthorityMemory,
      FilingCheckMemory,
      AppLinksFake,
      FaultyDirectDebit,
      ProviderEventSignatureFake,
      BillingTermsLive,
      DocumentRendererPdf
    )
  ),
  Layer.provideMerge(SystemLive),
  Layer.provideMerge(EphemeralDatabase)
)

let counter = 0
const unique = (stem: string) => `${stem}-${process.pid}-${Date.now().toString(36)}-${++counter}`

export const aUser = (name: string) =>
  Effect.flatMap(Users, (users) => users.create({ email: Email.make(`${unique(name)}@example.com`), name }))

/** A tenant the user owns, named as given. */
export const aTenant = (owner: User, name: string) =>
  Effect.flatMap(Tenants, (tenants) =>
    tenants.create({ code: TenantCode.make(unique("t")), name, email: null }).pipe(asUser(owner))
  ).pipe(Effect.map(({ tenant }) => tenant))

const line = (n: number) =>
  new ReturnLine({
    contactId: ContactId.make(`00000000-0000-4000-8000-${String(n).padStart(12, "0")}`),
    contactCode: `SUB${n}`,
    name: `Subcontractor ${n}`,
    utr: null,
    verificationNumber: null,
    taxTreatment: "Gross",
    grossAmount: 100000,
    materials: 0,
    deducted: 0
  })

/** A return of the tenant for the tax month, with `subcontractors` lines, filed and accepted by the tax authority. */
export const anAcceptedReturn = (tenantId: TenantId, periodEnd: string, subcontractors: number) =>
  Effect.gen(function* () {
    const id = MonthlyReturnId.make(yield* (yield* IdGenerator).uuid)
    const submittedAt = new Date(`${periodEnd}T12:00:00Z`)
    yield* (yield* MonthlyReturnRepo).insert(
      new MonthlyReturn({
        id,
        tenantId,
        periodEnd,
        status: "Submitted",
        contractor: new ReturnContractor({ name: "Contractor", utr: null }),
        lines: Array.from({ length: subcontractors }, (_, i) => line(i + 1)),
        nilReturn: false,
        inactive: false,
        declarations: storedDeclarations(submittedAt),
        submittedAt,
        acceptedAt: null,
        rejectionReason: null,
        invoiced: false
      })
    )
    const sql = yield* SqlClient.SqlClient
    yield* sql`
      UPDATE monthly_returns SET status = 'Accepted', accepted_at = ${new Date(submittedAt.getTime() + 3600_000)},
        next_attempt_at = NULL
      WHERE tenant_id = ${tenantId} AND id = ${id}`
    return id
  }).pipe(Effect.orDie)
