import { Effect } from "effect"
import { ValidationFailed } from "../Errors.js"
import { formatPounds } from "../Money.js"

/** A payment may not be more than what is due on its invoice (400 naming `amount`), on either side. */
export const withinAmountDue = (
  invoice: { readonly number: string; readonly amountDue: number },
  amount: number
): Effect.Effect<void, ValidationFailed> =>
  amount <= invoice.amountDue
    ? Effect.void
    : Effect.fail(
        ValidationFailed.one(
          "amount",
          invoice.amountDue === 0
            ? `${invoice.number} is paid: nothing is due on it.`
            : `Must be at most the ${formatPounds(invoice.amountDue)} due on ${invoice.number}`
        )
      )
