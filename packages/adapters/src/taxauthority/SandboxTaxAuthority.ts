import { type CisDetails, missingForType } from "@cisbook/core/cis/CisDetails"
import type { TaxTreatment } from "@cisbook/core/contacts/Contact"
import { TaxAuthority } from "@cisbook/core/ports/TaxAuthority"
import type { VerificationAnswer } from "@cisbook/core/taxauthority/Verification"
import { Effect, Layer } from "effect"
import { SandboxReturnOffice } from "./SandboxReturnOffice.js"

/** The UTR's last digit picks the treatment: 0–6 Net, 7–8 Gross, 9 Unmatched; no UTR cannot be matched. */
const treatmentOf = (utr: string | null): TaxTreatment => {
  const last = utr === null ? null : Number(utr.at(-1))
  if (last === null) return "Unmatched"
  return last <= 6 ? "Net" : last <= 8 ? "Gross" : "Unmatched"
}

/** Ten digits that depend on the identity alone (FNV-1a), so the same subcontractor always gets the same number. */
const digitsOf = (details: CisDetails) => {
  const key = [
    details.type,
    details.utr,
    details.niNumber,
    details.companyNumber,
    details.lastName,
    details.tradingName
  ]
    .map((part) => part ?? "")
    .join("|")
  let hash = 0xcbf29ce484222325n
  for (const char of key) hash = BigInt.asUintN(64, (hash ^ BigInt(char.codePointAt(0) ?? 0)) * 0x100000001b3n)
  return (hash % 10_000_000_000n).toString().padStart(10, "0")
}

const isError = (name: string | null) => name?.trim().toLowerCase() === "error"

/**
 * How the sandbox answers, from the identity alone: a last name or trading name `Error` is
 * refused; an incomplete identity is refused naming what is missing; any other is matched, the
 * UTR's last digit picking the treatment, with a verification number `V` and 10 digits (and
 * `/A` when unmatched).
 */
export const sandboxAnswer = (details: CisDetails): VerificationAnswer => {
  if (isError(details.lastName) || isError(details.tradingName)) {
    return { _tag: "Refused", message: "The details given do not match HMRC's records for this subcontractor." }
  }
  const missing = missingForType(details)
  if (missing.length > 0) {
    return { _tag: "Refused", message: `A ${details.type} cannot be verified without: ${missing.join(", ")}.` }
  }
  const taxTreatment = treatmentOf(details.utr)
  const suffix = taxTreatment === "Unmatched" ? "/A" : ""
  return { _tag: "Matched", verificationNumber: `V${digitsOf(details)}${suffix}`, taxTreatment }
}

/** The sandbox over a given return office, for a test that looks at what the office received. */
export const SandboxTaxAuthorityOver = Layer.effect(
  TaxAuthority,
  Effect.map(SandboxReturnOffice, (office) =>
    TaxAuthority.of({
      verify: (request) => Effect.succeed(sandboxAnswer(request.subcontractor)),
      sendReturn: office.send,
      findSentReturn: office.find,
      pollReturn: office.poll
    })
  )
)

/**
 * TAX_AUTHORITY=sandbox: deterministic answers to verifications and returns, no network; returns
 * are built into HMRC's CIS300 document and checked as HMRC would (see SandboxReturnOffice).
 */
export const SandboxTaxAuthority = SandboxTaxAuthorityOver.pipe(Layer.provide(SandboxReturnOffice.Default))
