import { Config } from "effect"

/** An integer setting from `min` to `max`, `fallback` when unset. */
export const wholeNumberSetting = (name: string, fallback: number, min: number, max: number) =>
  Config.withDefault(
    Config.integer(name).pipe(
      Config.validate({
        message: `Must be a whole number from ${min} to ${max}`,
        validation: (n) => n >= min && n <= max
      })
    ),
    fallback
  )
