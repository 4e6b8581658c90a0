import { Context, type Effect } from "effect"

/** Whether the store can serve: it answers, and its schema has every change this version knows. */
export type StorageState =
  | { readonly _tag: "Ready" }
  | { readonly _tag: "Unreachable"; readonly reason: string }
  | { readonly _tag: "SchemaBehind"; readonly missing: ReadonlyArray<string> }

/** The store's own health, as a load balancer asks it before sending requests to a process. */
export class StorageHealth extends Context.Tag("core/StorageHealth")<
  StorageHealth,
  { readonly check: Effect.Effect<StorageState> }
>() {}
