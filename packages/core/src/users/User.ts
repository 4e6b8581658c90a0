import { Schema } from "effect"
import { Email } from "../Email.js"
import { UserId } from "../Ids.js"

export class User extends Schema.Class<User>("User")({
  id: UserId,
  /** Null for a user signed in with a token that carries no email claim. */
  email: Schema.NullOr(Email),
  name: Schema.String,
  /** The identity provider's `sub`; null until the user first signs in with a token. */
  subject: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf
}) {}

/** A user known to have an email address: one made by support staff, or invited by address. */
export type UserWithEmail = User & { readonly email: Email }

export const UserName = Schema.Trim.pipe(
  Schema.minLength(1, { message: () => "A name is required" }),
  Schema.maxLength(200, { message: () => "A name has at most 200 characters" })
)

/** Claims of a verified identity-provider token. */
export interface IdentityClaims {
  readonly subject: string
  readonly email: string | undefined
  readonly emailVerified: boolean | undefined
  readonly name: string | undefined
}
