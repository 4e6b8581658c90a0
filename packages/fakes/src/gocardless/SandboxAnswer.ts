import { randomBytes } from "node:crypto"

/** What the sandbox answers an API request: a status and GoCardless's JSON body. */
export interface SandboxAnswer {
  readonly status: number
  readonly body: unknown
}

export const ok = (body: unknown, status = 200): SandboxAnswer => ({ status, body })

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

/** A GoCardless-style id: the resource's prefix and ten upper-case characters (MD00012ABC...). */
export const sandboxId = (prefix: string): string =>
  prefix + Array.from(randomBytes(10), (byte) => ALPHABET[byte % ALPHABET.length]).join("")

export interface ErrorDetail {
  /** Absent on a validation error, which names its field instead (as GoCardless's do). */
  readonly reason?: string
  readonly message: string
  readonly field?: string
  readonly request_pointer?: string
  readonly links?: Readonly<Record<string, string>>
}

type ErrorType = "invalid_api_usage" | "invalid_state" | "validation_failed"

/** GoCardless's error body: `{ "error": { message, documentation_url, type, request_id, code, errors } }`. */
export const failure = (status: number, type: ErrorType, message: string, errors: ReadonlyArray<ErrorDetail>) =>
  ok(
    {
      error: {
        message,
        documentation_url: `https://developer.gocardless.com/api-reference#${errors[0]?.reason ?? type}`,
        type,
        request_id: sandboxId("RQ"),
        code: status,
        errors
      }
    },
    status
  )

export const notFound = () =>
  failure(404, "invalid_api_usage", "Resource not found", [
    { reason: "resource_not_found", message: "Resource not found" }
  ])

/** GoCardless answers a request its resource's state forbids 422 `invalid_state` (only a repeated create is 409). */
export const invalidState = (reason: string, message: string) =>
  failure(422, "invalid_state", message, [{ reason, message }])

/** GoCardless's 422 `validation_failed`: one error per field, each with its field and pointer and no reason. */
export const validationFailed = (
  errors: ReadonlyArray<{ readonly field: string; readonly message: string }>,
  pointer: string
) =>
  failure(
    422,
    "validation_failed",
    "Validation failed",
    errors.map((e) => ({
      field: e.field,
      message: e.message,
      request_pointer: `${pointer}/${e.field}`
    }))
  )
