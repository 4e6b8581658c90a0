import { Context, type Effect } from "effect"

/** Runs an effect atomically: every write in it lands, or none does. */
export class Transactor extends Context.Tag("core/Transactor")<
  Transactor,
  { readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R> }
>() {}
