import { errorAnswer, successAnswer } from "./EngineDocuments.js"
import { BUSINESS_FAILURE, returnErrors } from "./EngineRules.js"
import { type AnswerBase, record, type Xml } from "./EngineMessage.js"

/** The engine's final answer to a CIS300 monthly return (IR-CIS-CIS300MR): HMRC's receipt, or its errors. */
export const returnAnswer = (envelope: Xml, base: AnswerBase, irMark: string) => {
  const errors = returnErrors(record(envelope["CISreturn"]))
  return errors.length > 0
    ? errorAnswer(base, [BUSINESS_FAILURE], errors)
    : successAnswer(base, irMark, "Monthly Return", "")
}
