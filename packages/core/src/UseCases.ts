import { Layer } from "effect"
import { ApiKeys } from "./usecases/ApiKeys.js"
import { Authentication } from "./usecases/Authentication.js"
import { Tenants } from "./usecases/Tenants.js"
import { Users } from "./usecases/Users.js"

/** Every use case, over whichever ports the composition root provides. */
export const UseCasesLive = Layer.mergeAll(Tenants.Default, Authentication.Default).pipe(
  Layer.provideMerge(ApiKeys.Default),
  Layer.provideMerge(Users.Default)
)
