/** The one bank account the sandbox's hosted page accepts (GoCardless's own sandbox test account). */
export const SANDBOX_SORT_CODE = "200000"
export const SANDBOX_ACCOUNT_NUMBER = "55779911"
export const SANDBOX_BANK_NAME = "BARCLAYS BANK PLC"

const digits = (value: string) => value.replace(/[\s-]/g, "")

export interface BankDetailsForm {
  readonly account_holder_name?: string | undefined
  readonly sort_code?: string | undefined
  readonly account_number?: string | undefined
}

export interface BankDetails {
  readonly accountHolderName: string
  readonly accountNumber: string
}

/** The details as the page's form posted them, or the sentence to show the person. */
export const checkBankDetails = (form: BankDetailsForm): BankDetails | { readonly error: string } => {
  const accountHolderName = (form.account_holder_name ?? "").trim()
  const sortCode = digits(form.sort_code ?? "")
  const accountNumber = digits(form.account_number ?? "")
  if (accountHolderName === "") return { error: "Enter the account holder's name." }
  if (!/^\d{6}$/.test(sortCode)) return { error: "Enter a sort code of 6 digits, for example 20-00-00." }
  if (!/^\d{8}$/.test(accountNumber)) return { error: "Enter an account number of 8 digits." }
  if (sortCode !== SANDBOX_SORT_CODE || accountNumber !== SANDBOX_ACCOUNT_NUMBER) {
    return { error: "The bank could not find this sort code and account number. Check them and try again." }
  }
  return { accountHolderName, accountNumber }
}
