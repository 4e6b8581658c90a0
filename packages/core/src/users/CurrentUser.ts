import { Context } from "effect"
import type { User } from "./User.js"

/** The authenticated caller of the request being served. */
export class CurrentUser extends Context.Tag("core/CurrentUser")<CurrentUser, User>() {}
