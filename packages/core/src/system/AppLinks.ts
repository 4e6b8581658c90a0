import { Context } from "effect"
import type { ConnectionId } from "../Ids.js"

/** Links into the front end (APP_URL), for emails. */
export class AppLinks extends Context.Tag("core/AppLinks")<
  AppLinks,
  { readonly connection: (id: ConnectionId) => string }
>() {}
