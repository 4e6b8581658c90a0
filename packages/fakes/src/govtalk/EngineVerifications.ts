import { errorAnswer, escapeXml, successAnswer } from "./EngineDocuments.js"
import { BUSINESS_FAILURE, verifyAnswer } from "./EngineRules.js"
import { type AnswerBase, record, text, type Xml } from "./EngineMessage.js"

/** The engine's final answer to a verification (IR-CIS-VERIFY): HMRC's CISresponse, or its errors. */
export const verificationAnswer = (envelope: Xml, base: AnswerBase, irMark: string) => {
  const request = record(envelope["CISrequest"])
  const answers = ((request["Subcontractor"] as Array<Xml> | undefined) ?? []).map(verifyAnswer)
  const errors = answers.flatMap((a) => (a._tag === "Errors" ? a.errors : []))
  if (errors.length > 0) return errorAnswer(base, [BUSINESS_FAILURE], errors)
  const contractor = record(request["Contractor"])
  const subcontractors = answers.map((a) => {
    if (a._tag === "Errors") return ""
    const s = a.subcontractor
    const name = record(s["Name"])
    const nameXml =
      s["Name"] === undefined
        ? ""
        : `<Name>${((name["Fore"] as Array<unknown> | undefined) ?? []).map((f) => `<Fore>${escapeXml(text(f))}</Fore>`).join("")}<Sur>${escapeXml(text(name["Sur"]))}</Sur></Name>`
    const optional = (element: string) =>
      s[element] === undefined ? "" : `<${element}>${escapeXml(text(s[element]))}</${element}>`
    return `                        <Subcontractor>${nameXml}${optional("TradingName")}${optional("WorksRef")}${optional("UTR")}${optional("CRN")}${optional("NINO")}<Matched>${a.matched ? "Y" : "N"}</Matched><TaxTreatment>${a.taxTreatment.toLowerCase()}</TaxTreatment><VerificationNumber>${a.verificationNumber}</VerificationNumber></Subcontractor>`
  })
  return successAnswer(
    base,
    irMark,
    "Subcontractor Verification",
    `                <CISresponse xmlns="http://www.govtalk.gov.uk/taxation/CISresponse">
                  <Contractor><UTR>${escapeXml(text(contractor["UTR"]))}</UTR><AOref>${escapeXml(text(contractor["AOref"]))}</AOref></Contractor>
${subcontractors.join("\n")}
              </CISresponse>`
  )
}
