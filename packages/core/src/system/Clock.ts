import { Context, type Effect } from "effect"

export class Clock extends Context.Tag("core/Clock")<Clock, { readonly now: Effect.Effect<Date> }>() {}
