/**
 * How much of an invoice's CIS deduction a payment carries. A payment of `amount` towards an
 * invoice whose amount payable (total less deduction) is `payable` carries
 * `deduction × amount / payable`, rounded half up to the penny. So that the shares of a fully
 * paid invoice add up to its deduction exactly, the payment that completes the invoice takes
 * whatever is left; and no share ever takes more than is left, so none is negative.
 */
export interface Paid {
  /** What the invoice's earlier payments add up to. */
  readonly amount: number
  /** The deduction their shares add up to. */
  readonly deduction: number
}

/** `numerator / denominator` rounded half up; exact for any pence, however large the product. */
const roundedRatio = (numerator: bigint, denominator: bigint): bigint =>
  (2n * numerator + denominator) / (2n * denominator)

export const deductionShare = (deduction: number, payable: number, before: Paid, amount: number): number => {
  const left = deduction - before.deduction
  if (payable <= 0 || before.amount + amount >= payable) return left
  const proportional = Number(roundedRatio(BigInt(deduction) * BigInt(amount), BigInt(payable)))
  return Math.min(proportional, left)
}

/** The shares of a sequence of payments, in the order they were made. */
export const split = (deduction: number, payable: number, amounts: ReadonlyArray<number>): ReadonlyArray<number> => {
  const shares: Array<number> = []
  let before: Paid = { amount: 0, deduction: 0 }
  for (const amount of amounts) {
    const share = deductionShare(deduction, payable, before, amount)
    shares.push(share)
    before = { amount: before.amount + amount, deduction: before.deduction + share }
  }
  return shares
}
