import { Context, type Effect, type Option } from "effect"
import type { Contact } from "./Contact.js"
import type { ContactQuery } from "./ContactQuery.js"
import type { ContactId, TenantId } from "../Ids.js"
import type { DuplicateKey } from "../system/DuplicateKey.js"

export interface ContactPage {
  readonly items: ReadonlyArray<Contact>
  /** Every contact that matches the query, on any page. */
  readonly totalCount: number
}

export class ContactRepo extends Context.Tag("core/ContactRepo")<
  ContactRepo,
  {
    /**
     * The codes ever issued in the tenant (deleted contacts' included) that match
     * `contactCodeCandidatePattern(base)`.
     */
    readonly issuedCodes: (tenantId: TenantId, base: string) => Effect.Effect<ReadonlySet<string>>
    /** The codes ever issued in the tenant that match `contactCodeCandidatePattern` of any of `bases`. */
    readonly issuedCodesAmong: (tenantId: TenantId, bases: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>>
    /**
     * Inside a transaction, before its codes are read: waits for any other transaction issuing
     * codes in the tenant to end, and makes the others wait for this one, so that the codes read
     * next are all the codes issued and none is picked twice.
     */
    readonly lockCodes: (tenantId: TenantId) => Effect.Effect<void>
    /** Issues the contact's code for good; fails with DuplicateKey "code" when it was ever issued in the tenant. */
    readonly insert: (contact: Contact) => Effect.Effect<void, DuplicateKey>
    /**
     * Issues every code in the tenant for good, for contacts that `insertIssued` writes later, or
     * none of them: DuplicateKey "code" when any was ever issued in the tenant (or appears twice).
     */
    readonly issueCodes: (tenantId: TenantId, codes: ReadonlyArray<string>) => Effect.Effect<void, DuplicateKey>
    /** Inserts every contact or none of them, each under a code `issueCodes` issued and no contact holds. */
    readonly insertIssued: (contacts: ReadonlyArray<Contact>) => Effect.Effect<void>
    /**
     * Which of `utrs` (10 digits) some contact of the tenant has on record, with or without the
     * subcontractor role: UTR → that contact's code (the first by code when several share it).
     */
    readonly codesByUtr: (tenantId: TenantId, utrs: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, string>>
    /** `code` is upper case. */
    readonly findByCode: (tenantId: TenantId, code: string) => Effect.Effect<Option.Option<Contact>>
    /** The tenant's contacts with any of `codes` (upper case); those that do not exist are left out. */
    readonly findByCodes: (tenantId: TenantId, codes: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Contact>>
    /**
     * Inside a transaction: findByCode, and the contact stays as found (no one else changes,
     * deletes or invoices it) until the transaction ends.
     */
    readonly findByCodeForUpdate: (tenantId: TenantId, code: string) => Effect.Effect<Option.Option<Contact>>
    /** Replaces every stored member but the id, tenant, code and creation time. */
    readonly update: (contact: Contact) => Effect.Effect<void>
    /** Removes the contact; its code stays issued. */
    readonly remove: (tenantId: TenantId, id: ContactId) => Effect.Effect<void>
    /** A page, sorted by the query's field and then by code, both in the query's direction. */
    readonly list: (tenantId: TenantId, query: ContactQuery) => Effect.Effect<ContactPage>
  }
>() {}
