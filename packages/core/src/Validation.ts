import { Effect, ParseResult, Schema } from "effect"
import { type FieldErrors, ValidationFailed } from "./Errors.js"
import { memberPath } from "./MemberPath.js"

type Issue = { readonly path: ReadonlyArray<PropertyKey>; readonly message: string }

const startsWith = (path: ReadonlyArray<PropertyKey>, prefix: ReadonlyArray<PropertyKey>) =>
  prefix.length <= path.length && prefix.every((key, i) => key === path[i])

const isNullBranch = (issue: Issue) => /^Expected (null|undefined), actual /.test(issue.message)

/**
 * A nullable member that is invalid also fails the union's null (and undefined) branch. That
 * says nothing to a caller once the member's own messages are there, so it is left out.
 */
const isUnionNoise = (issue: Issue, issues: ReadonlyArray<Issue>) =>
  isNullBranch(issue) && issues.some((other) => !isNullBranch(other) && startsWith(other.path, issue.path))

/** Turns schema issues into the `errors` map of a validation problem: member path → messages. */
export const fieldErrors = (issues: ReadonlyArray<Issue>): FieldErrors => {
  const errors: Record<string, Array<string>> = {}
  for (const issue of issues) {
    if (isUnionNoise(issue, issues)) continue
    const messages = (errors[memberPath(issue.path)] ??= [])
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

/** Fails with a validation problem when any member has a message. */
export const failIfAny = (errors: FieldErrors): Effect.Effect<void, ValidationFailed> =>
  Object.keys(errors).length === 0
    ? Effect.void
    : Effect.fail(new ValidationFailed({ detail: describeFieldErrors(errors), errors }))
