import { Context, type Effect } from "effect"

export class IdGenerator extends Context.Tag("core/IdGenerator")<
  IdGenerator,
  {
    /** A new lower-case UUID (time-ordered where the implementation can). */
    readonly uuid: Effect.Effect<string>
  }
>() {}
