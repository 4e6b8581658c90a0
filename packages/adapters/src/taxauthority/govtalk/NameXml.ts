import type { HmrcPersonName } from "@cisbook/core/cis/HmrcNames"

/** Members in the schema's order; absent ones left out. */
export const present = (members: ReadonlyArray<readonly [string, unknown]>) =>
  Object.fromEntries(members.filter(([, value]) => value !== null && value !== undefined))

/** HMRC's NameStructure (core-v2-0) of a name in HMRC's form: title, one or two forenames, surname. */
export const nameXml = (name: HmrcPersonName) =>
  present([
    ["Ttl", name.title],
    ["Fore", name.forenames],
    ["Sur", name.surname]
  ])
