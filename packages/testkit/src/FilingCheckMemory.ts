import type { CisDetails } from "@cisbook/core/cis/CisDetails"
import { type HmrcNamed, hmrcNameProblems } from "@cisbook/core/cis/HmrcNames"
import { FilingCheck, type FilingProblem } from "@cisbook/core/taxauthority/FilingCheck"
import { Effect, Layer } from "effect"

/** The element of HMRC's forms each name member goes to. */
const elements: Record<keyof HmrcNamed, string> = {
  title: "Ttl",
  firstName: "Fore",
  secondName: "Fore",
  lastName: "Sur",
  tradingName: "TradingName"
}

const nameProblems = (line: number | null, named: HmrcNamed): ReadonlyArray<FilingProblem> =>
  Object.entries(hmrcNameProblems(named)).map(([member, message]) => ({
    line,
    element: elements[member as keyof HmrcNamed],
    message
  }))

const noName = { title: null, firstName: null, secondName: null, lastName: null }

const namedOf = (details: CisDetails | null, name: string): HmrcNamed => details ?? { ...noName, tradingName: name }

/**
 * Stands in for the check against HMRC's schemas: refuses what HMRC's forms cannot take of the
 * names (the rules the schemas hold for names, as core states them), by line. The real check
 * (FilingCheckHmrc) runs HMRC's XSDs; the port contract holds the two to the same answers.
 */
export const FilingCheckMemory = Layer.succeed(
  FilingCheck,
  FilingCheck.of({
    checkReturn: (submission) =>
      Effect.succeed(
        submission.lines.flatMap((line, index) => nameProblems(index, namedOf(line.cisDetails, line.name)))
      ),
    checkVerification: (request) => Effect.succeed(nameProblems(null, request.subcontractor))
  })
)
