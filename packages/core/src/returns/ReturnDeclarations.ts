import { Schema } from "effect"
import type { FieldErrors } from "../Errors.js"
import type { Principal } from "../users/CurrentUser.js"

/**
 * What the contractor declared on its CIS300, as it said it: its subcontractors are not its
 * employees (`employmentStatus`), they were verified or were on a return in this tax year or the
 * two before (`subcontractorsVerified`), and the return is correct (`informationCorrect`); by
 * whom (`declaredBy`, the id of the API key the request came with, else of the user; null on a
 * return declared on the contractor's behalf before it declared them itself) and when.
 */
export class ReturnDeclarations extends Schema.Class<ReturnDeclarations>("ReturnDeclarations")({
  employmentStatus: Schema.Boolean,
  subcontractorsVerified: Schema.Boolean,
  informationCorrect: Schema.Boolean,
  declaredBy: Schema.NullOr(Schema.String),
  declaredAt: Schema.DateFromSelf
}) {}

/** The declarations as a request makes them: each a boolean, any of them left out. */
export interface NewDeclarations {
  readonly employmentStatus?: boolean | undefined
  readonly subcontractorsVerified?: boolean | undefined
  readonly informationCorrect?: boolean | undefined
}

type Declaration = keyof NewDeclarations

const wording: Record<Declaration, string> = {
  employmentStatus:
    "Declare (true) that none of the subcontractors on the return is your employee: the contractor makes this declaration, not the service",
  subcontractorsVerified:
    "Declare (true) that every subcontractor on the return was verified with HMRC, or was on one of your returns in this tax year or the two before",
  informationCorrect: "Declare (true) that the information on the return is correct and complete"
}

/** The declarations a return needs: all three with lines, only informationCorrect on a nil return. */
export const declarationsNeeded = (nilReturn: boolean): ReadonlyArray<Declaration> =>
  nilReturn ? ["informationCorrect"] : ["employmentStatus", "subcontractorsVerified", "informationCorrect"]

/** Each declaration the return needs that was not made (missing or not true), by `declarations.<member>`. */
export const declarationErrors = (nilReturn: boolean, declarations: NewDeclarations | undefined): FieldErrors => {
  const errors: Record<string, Array<string>> = {}
  for (const declaration of declarationsNeeded(nilReturn))
    if (declarations?.[declaration] !== true) errors[`declarations.${declaration}`] = [wording[declaration]]
  return errors
}

/** The declarations as made by the principal at `at` (what a nil return leaves out is not declared). */
export const declared = (declarations: NewDeclarations, by: Principal, at: Date): ReturnDeclarations =>
  new ReturnDeclarations({
    employmentStatus: declarations.employmentStatus === true,
    subcontractorsVerified: declarations.subcontractorsVerified === true,
    informationCorrect: declarations.informationCorrect === true,
    declaredBy: by.apiKeyId ?? by.user.id,
    declaredAt: at
  })
