/**
 * How much of an invoice's figure (its CIS deduction; on a subcontractor's bill also its gross
 * and materials) a payment carries. A payment of `amount` towards an invoice whose amount payable
 * (total less deduction) is `payable` carries `figure × amount / payable`, rounded half up to the
 * penny. So that the shares of a fully paid invoice add up to its figure exactly, the payment that
 * completes the invoice takes whatever is left; and no share ever takes more than is left, so
 * none is negative.
 */
export interface Paid {
  /** What the invoice's earlier payments add up to. */
  readonly amount: number
  /** What their shares of the figure add up to. */
  readonly share: number
}

/** `numerator / denominator` rounded half up; exact for any pence, however large the product. */
const roundedRatio = (numerator: bigint, denominator: bigint): bigint =>
  (2n * numerator + denominator) / (2n * denominator)

export const paymentShare = (figure: number, payable: number, before: Paid, amount: number): number => {
  const left = figure - before.share
  if (payable <= 0 || before.amount + amount >= payable) return left
  const proportional = Number(roundedRatio(BigInt(figure) * BigInt(amount), BigInt(payable)))
  return Math.min(proportional, left)
}

/** The shares of one figure of a sequence of payments, in the order they were made. */
export const split = (figure: number, payable: number, amounts: ReadonlyArray<number>): ReadonlyArray<number> => {
  const shares: Array<number> = []
  let before: Paid = { amount: 0, share: 0 }
  for (const amount of amounts) {
    const share = paymentShare(figure, payable, before, amount)
    shares.push(share)
    before = { amount: before.amount + amount, share: before.share + share }
  }
  return shares
}

/**
 * The shares of several figures of one invoice a payment carries, each by `paymentShare`:
 * `before` holds what the earlier payments add up to and their shares of each figure.
 */
export const paymentShares = <K extends string>(
  figures: Readonly<Record<K, number>>,
  payable: number,
  before: { readonly amount: number; readonly shares: Readonly<Record<K, number>> },
  amount: number
): Record<K, number> => {
  const shares = {} as Record<K, number>
  for (const key of Object.keys(figures) as Array<K>) {
    shares[key] = paymentShare(figures[key], payable, { amount: before.amount, share: before.shares[key] }, amount)
  }
  return shares
}
