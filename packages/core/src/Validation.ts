import { Effect, ParseResult, Schema } from "effect"
import { type FieldErrors, ValidationFailed } from "./Errors.js"

/** Turns schema issues into the `errors` map of a validation problem: member path → messages. */
export const fieldErrors = (
  issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>
): FieldErrors => {
  const errors: Record<string, Array<string>> = {}
  for (const issue of issues) {
    const member = issue.path.length === 0 ? "$" : issue.path.map(String).join(".")
    const messages = (errors[member] ??= [])
    if (!messages.includes(issue.message)) messages.push(issue.message)
  }
  return errors
}

export const describeFieldErrors = (errors: FieldErrors): string => {
  const members = Object.keys(errors)
  if (members.length === 1 && members[0] !== undefined) {
    const [first] = errors[members[0]] ?? []
    return members[0] === "$" ? `${first ?? "The request is invalid"}.` : `${members[0]}: ${first ?? "invalid"}.`
  }
  return `${members.length} members are invalid: ${members.join(", ")}. See errors for each one.`
}

export const fromParseError = (error: ParseResult.ParseError): ValidationFailed => {
  const errors = fieldErrors(ParseResult.ArrayFormatter.formatErrorSync(error))
  return new ValidationFailed({ detail: describeFieldErrors(errors), errors })
}

/** Decodes untrusted input, reporting every invalid member at once. */
export const decodeInput =
  <A, I>(schema: Schema.Schema<A, I>) =>
  (input: unknown): Effect.Effect<A, ValidationFailed> =>
    Schema.decodeUnknown(schema, { errors: "all", onExcessProperty: "ignore" })(input).pipe(
      Effect.mapError(fromParseError)
    )
