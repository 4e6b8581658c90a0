import { ParseResult, Schema } from "effect"

/** The largest amount the service takes: £999,999,999.99, so that sums of pence stay exact. */
export const MAX_PENCE = 99_999_999_999

/** An amount of money in integer pence, GBP: how the service stores and computes money. */
export const Pence = Schema.Int.pipe(
  Schema.between(0, MAX_PENCE),
  Schema.annotations({ title: "Pence", description: "An amount of money in integer pence (GBP)" })
)

const poundsMessage = "Must be an amount in pounds, 0 or more, with at most 2 decimal places (for example 1250.5)"

/**
 * Pounds with at most 2 decimal places, read from the shortest decimal form of the number, so
 * that 0.29 is 29 pence and 0.295 is refused rather than rounded.
 */
const pence = (pounds: number): number | undefined => {
  const digits = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(pounds))
  if (!digits) return undefined
  const whole = Number(digits[1])
  const fraction = Number((digits[2] ?? "").padEnd(2, "0"))
  const amount = whole * 100 + fraction
  return amount <= MAX_PENCE ? amount : undefined
}

/**
 * Money as the wire carries it: a JSON number of pounds with at most 2 decimal places, 0 or
 * more. Decodes to integer pence; pence encode back to pounds.
 */
export const Pounds = Schema.transformOrFail(Schema.Number, Pence, {
  strict: true,
  decode: (pounds, _, ast) => {
    const amount = pence(pounds)
    return amount === undefined
      ? ParseResult.fail(new ParseResult.Type(ast, pounds, poundsMessage))
      : ParseResult.succeed(amount)
  },
  encode: (amount) => ParseResult.succeed(amount / 100)
}).annotations({
  title: "Pounds",
  description: "GBP in pounds, 0 or more, with at most 2 decimal places (a third decimal place is refused)",
  jsonSchema: { type: "number", minimum: 0, maximum: MAX_PENCE / 100, multipleOf: 0.01, examples: [1250.5] }
})

/** Pence as pounds with two decimals, for people and spreadsheets: 125050 is "1250.50". */
export const formatPounds = (amount: number): string =>
  `${Math.trunc(amount / 100)}.${String(amount % 100).padStart(2, "0")}`

/**
 * A difference of money as the wire carries it: pounds with at most 2 decimal places, below 0
 * when the first amount is the smaller. Decodes to integer pence; pence encode back to pounds.
 */
export const SignedPounds = Schema.transformOrFail(
  Schema.Number,
  Schema.Int.pipe(Schema.between(-MAX_PENCE, MAX_PENCE)),
  {
    strict: true,
    decode: (pounds, _, ast) => {
      const amount = pence(Math.abs(pounds))
      return amount === undefined
        ? ParseResult.fail(
            new ParseResult.Type(ast, pounds, "Must be an amount in pounds with at most 2 decimal places")
          )
        : ParseResult.succeed(pounds < 0 ? -amount : amount)
    },
    encode: (amount) => ParseResult.succeed(amount / 100)
  }
).annotations({
  title: "SignedPounds",
  description: "A difference in GBP, in pounds with at most 2 decimal places; negative when below",
  jsonSchema: {
    type: "number",
    minimum: -MAX_PENCE / 100,
    maximum: MAX_PENCE / 100,
    multipleOf: 0.01,
    examples: [-12.5]
  }
})
