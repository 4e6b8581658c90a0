import { Context } from "effect"
import type { ApiKeyId } from "../Ids.js"
import type { User } from "./User.js"

/**
 * Who acts: the user, and the API key the request came with, which stands for the user (null for
 * an access token, or for a user the admin CLI names).
 */
export interface Principal {
  readonly user: User
  readonly apiKeyId: ApiKeyId | null
}

/**
 * The principal a use case acts as. Each front end finds it before a use case runs, as it finds
 * the tenant: the API from the request's credential, the admin CLI from the user it names.
 */
export class CurrentUser extends Context.Tag("core/CurrentUser")<CurrentUser, Principal>() {}
