import { ReturnDeclarations } from "@cisbook/core/returns/ReturnDeclarations"

/** The declarations a return with lines needs, as a request makes them. */
export const allDeclared = { employmentStatus: true, subcontractorsVerified: true, informationCorrect: true } as const

/** The one declaration a nil return needs, as a request makes it. */
export const nilDeclared = { informationCorrect: true } as const

/** Declarations as stored on a return a test builds itself: what a return of its kind needs, by nobody, at `at`. */
export const storedDeclarations = (at: Date, nilReturn = false) =>
  new ReturnDeclarations({
    employmentStatus: !nilReturn,
    subcontractorsVerified: !nilReturn,
    informationCorrect: true,
    declaredBy: null,
    declaredAt: at
  })

/** The declarations as a tax authority's document carries them. */
export const submittedDeclarations = (nilReturn = false) => ({
  employmentStatus: !nilReturn,
  subcontractorsVerified: !nilReturn,
  informationCorrect: true
})
