import type { BillingProfile } from "@cisbook/core/billing/BillingProfile"
import type { Mandate } from "@cisbook/core/billing/Mandate"
import { CurrentUser } from "@cisbook/core/CurrentUser"
import { BillingProfiles } from "@cisbook/core/usecases/BillingProfiles"
import { Mandates } from "@cisbook/core/usecases/Mandates"
import { CisbookApi } from "@cisbook/sdk/Api"
import { BillingMandateDto, BillingProfileDto, MandateSetupDto } from "@cisbook/sdk/BillingDtos"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Option } from "effect"

const profileDto = ({ address, mandateStatus }: BillingProfile) =>
  new BillingProfileDto({
    ...Option.match(address, {
      onNone: () => ({
        companyName: null,
        billingEmail: null,
        addressLine1: null,
        addressLine2: null,
        addressLine3: null,
        postcode: null,
        country: null
      }),
      onSome: (a) => ({ ...a })
    }),
    mandateStatus
  })

const mandateDto = (m: Mandate) =>
  new BillingMandateDto({
    status: m.status,
    reference: m.reference,
    accountHolderName: m.accountHolderName,
    bankName: m.bankName,
    accountNumberEnding: m.accountNumberEnding,
    nextPossibleChargeDate: m.nextPossibleChargeDate,
    createdAt: m.createdAt
  })

export const BillingHandlers = HttpApiBuilder.group(CisbookApi, "billing", (handlers) =>
  Effect.gen(function* () {
    const profiles = yield* BillingProfiles
    const mandates = yield* Mandates
    return handlers
      .handle("getBillingProfile", () => CurrentUser.pipe(Effect.flatMap(profiles.get), Effect.map(profileDto)))
      .handle("updateBillingProfile", ({ payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => profiles.put(user, payload)),
          Effect.map(profileDto)
        )
      )
      .handle("createMandateSetup", ({ payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => mandates.setup(user, payload)),
          Effect.map((setup) => new MandateSetupDto(setup))
        )
      )
      .handle("completeMandateSetup", ({ payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => mandates.complete(user, payload)),
          Effect.map(mandateDto)
        )
      )
      .handle("getMandate", () => CurrentUser.pipe(Effect.flatMap(mandates.get), Effect.map(mandateDto)))
      .handle("cancelMandate", () => CurrentUser.pipe(Effect.flatMap(mandates.cancel)))
  })
)
