import type { SandboxResources } from "../SandboxResources.js"

/** Customers and their bank accounts, as a flow's hosted page collected them. */
export const customers = ({ get }: SandboxResources) =>
  ({ getCustomer: get("customers"), getBankAccount: get("customer_bank_accounts") }) as const
