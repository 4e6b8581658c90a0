import { Context, type Effect } from "effect"
import type { Unauthorized } from "../Errors.js"
import type { IdentityClaims } from "./User.js"

/** Verifies a bearer token from the identity provider. */
export class IdentityVerifier extends Context.Tag("core/IdentityVerifier")<
  IdentityVerifier,
  { readonly verify: (token: string) => Effect.Effect<IdentityClaims, Unauthorized> }
>() {}
