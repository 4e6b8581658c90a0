import { Context, Layer } from "effect"

/** Whether the process has begun to shut down: it then tells load balancers it is not ready. */
export class ShuttingDown extends Context.Tag("http/ShuttingDown")<
  ShuttingDown,
  { readonly begun: () => boolean; readonly begin: () => void }
>() {}

export const ShuttingDownLive = Layer.sync(ShuttingDown, () => {
  let begun = false
  return {
    begun: () => begun,
    begin: () => {
      begun = true
    }
  }
})
