import { Config } from "effect"

/** A whole-number setting from `min` to `max`, `fallback` when it is not set. */
export const wholeNumberBetween = (name: string, fallback: number, min: number, max: number) =>
  Config.withDefault(
    Config.integer(name).pipe(
      Config.validate({
        message: `Must be a whole number from ${min} to ${max}`,
        validation: (n) => n >= min && n <= max
      })
    ),
    fallback
  )
