import { Schema } from "effect"

/**
 * The service's error categories. Each carries a `detail` sentence written for the caller:
 * what was wrong and, where it helps, how to fix it. The HTTP contract maps each category to
 * a status and an RFC 9457 problem body.
 */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {
  detail: Schema.String
}) {}

export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  detail: Schema.String
}) {}

/**
 * What the caller can do about a failure, in the domain's words (the detail says it too). Each
 * front end adds how it is done there: the HTTP contract names the request.
 */
export const Remedy = Schema.Union(
  Schema.TaggedStruct("StartMandateSetup", {}),
  Schema.TaggedStruct("SetBillingEmail", {}),
  Schema.TaggedStruct("CancelMandate", {}),
  Schema.TaggedStruct("CompleteCisDetails", { tenant: Schema.String })
)
export type Remedy = typeof Remedy.Type

export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  detail: Schema.String,
  remedy: Schema.optional(Remedy)
}) {}

export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", {
  detail: Schema.String,
  remedy: Schema.optional(Remedy)
}) {}

/** A request that is well formed but that a rule of the service refuses. */
export class Refused extends Schema.TaggedError<Refused>()("Refused", {
  detail: Schema.String,
  remedy: Schema.optional(Remedy)
}) {}

export const FieldErrors = Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) })
export type FieldErrors = typeof FieldErrors.Type

/** One or more members of a request are invalid; `errors` names each one. */
export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()("ValidationFailed", {
  detail: Schema.String,
  errors: FieldErrors
}) {
  static one(member: string, message: string): ValidationFailed {
    return new ValidationFailed({ detail: message, errors: { [member]: [message] } })
  }
}

/** A signed request (a provider's notification) whose signature is missing or not made with the shared secret. */
export class InvalidSignature extends Schema.TaggedError<InvalidSignature>()("InvalidSignature", {
  detail: Schema.String
}) {}
