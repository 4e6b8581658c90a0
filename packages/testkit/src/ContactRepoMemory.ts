import type { Contact } from "@cisbook/core/contacts/Contact"
import { contactCodeCandidateForms, contactCodeCandidatePattern } from "@cisbook/core/contacts/ContactCode"
import type { ContactQuery } from "@cisbook/core/contacts/ContactQuery"
import { ContactRepo } from "@cisbook/core/contacts/ContactRepo"
import { DuplicateKey } from "@cisbook/core/system/DuplicateKey"
import type { TenantId } from "@cisbook/core/Ids"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

interface State {
  readonly contacts: ReadonlyArray<Contact>
  /** Every code ever issued, as tenant/code. */
  readonly issued: ReadonlySet<string>
}

/** A code as `State.issued` holds it. */
const codeKey = (tenantId: TenantId, code: string) => `${tenantId}/${code}`

const searchable = (c: Contact) =>
  [
    c.name,
    c.code,
    c.email,
    ...(c.isCisSubcontractor && c.cisDetails
      ? [c.cisDetails.utr, c.cisDetails.niNumber, c.cisDetails.companyNumber, c.cisDetails.tradingName]
      : [])
  ].flatMap((field) => (field ? [field.toLowerCase()] : []))

const matches = (query: ContactQuery) => (c: Contact) => {
  if (query.role === "Customer" && !c.isCustomer) return false
  if (query.role === "Supplier" && !c.isSupplier) return false
  if (query.role === "CisSubcontractor" && !c.isCisSubcontractor) return false
  if (query.verificationStatus !== null) {
    if (!c.isCisSubcontractor) return false
    if (query.verificationStatus !== "All" && c.verification?.status !== query.verificationStatus) return false
  }
  const fields = searchable(c)
  return query.terms.every((term) => fields.some((field) => field.includes(term)))
}

const sortKey =
  (query: ContactQuery) =>
  (c: Contact): string | number | null => {
    switch (query.sortBy) {
      case "Name":
        return c.name.toLowerCase()
      case "Code":
        return c.code
      case "Email":
        return c.email
      case "CreatedAt":
        return c.createdAt.getTime()
      case "UpdatedAt":
        return c.updatedAt.getTime()
    }
  }

/** Ascending with nulls last, as PostgreSQL sorts; ties by code. Descending is the exact reverse. */
const ordering = (query: ContactQuery) => {
  const key = sortKey(query)
  const compare = (a: string | number | null, b: string | number | null) =>
    a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1
  return (x: Contact, y: Contact) => {
    const ascending = compare(key(x), key(y)) || compare(x.code, y.code)
    return query.sortDesc ? -ascending : ascending
  }
}

/**
 * Whether a code is a candidate of any of the bases, as `contactCodeCandidatePattern` says, in a
 * few lookups per code rather than a regular expression per base.
 */
const candidateOfAny = (bases: ReadonlyArray<string>) => {
  const exact = new Set(bases)
  const forms = new Set(bases.flatMap((base) => contactCodeCandidateForms(base).map((f) => `${f.prefix}|${f.digits}`)))
  return (code: string) => {
    if (exact.has(code)) return true
    for (let digits = 1; digits < code.length && /\d/.test(code.charAt(code.length - digits)); digits++) {
      if (forms.has(`${code.slice(0, code.length - digits)}|${digits}`)) return true
    }
    return false
  }
}

export const ContactRepoMemory = Layer.effect(
  ContactRepo,
  Effect.gen(function* () {
    const journal = yield* MemoryJournal
    const state = yield* journal.ref<State>({ contacts: [], issued: new Set() })
    const replace = (contact: Contact) =>
      Ref.update(state, (s) => ({
        ...s,
        contacts: s.contacts.map((c) => (c.id === contact.id && c.tenantId === contact.tenantId ? contact : c))
      }))
    const findByCode = (tenantId: TenantId, code: string) =>
      Ref.get(state).pipe(
        Effect.map((s) => Option.fromNullable(s.contacts.find((c) => c.tenantId === tenantId && c.code === code)))
      )
    return ContactRepo.of({
      issuedCodes: (tenantId, base) =>
        Ref.get(state).pipe(
          Effect.map((s) => {
            const candidate = new RegExp(contactCodeCandidatePattern(base))
            const prefix = `${tenantId}/`
            return new Set(
              [...s.issued].flatMap((key) => {
                const code = key.slice(prefix.length)
                return key.startsWith(prefix) && candidate.test(code) ? [code] : []
              })
            )
          })
        ),
      issuedCodesAmong: (tenantId, bases) =>
        Ref.get(state).pipe(
          Effect.map((s) => {
            const isCandidate = candidateOfAny(bases)
            const prefix = `${tenantId}/`
            return new Set(
              [...s.issued].flatMap((key) => {
                const code = key.slice(prefix.length)
                return key.startsWith(prefix) && isCandidate(code) ? [code] : []
              })
            )
          })
        ),
      // Nothing is shared between processes; fibers that race for a code are told by DuplicateKey.
      lockCodes: () => Effect.void,
      issueCodes: (tenantId, codes) =>
        Ref.modify(state, (s) => {
          const issued = new Set(s.issued)
          for (const code of codes) {
            const key = codeKey(tenantId, code)
            if (issued.has(key)) return [false, s] as const
            issued.add(key)
          }
          return [true, { ...s, issued }] as const
        }).pipe(
          Effect.flatMap((inserted) => (inserted ? Effect.void : Effect.fail(new DuplicateKey({ key: "code" }))))
        ),
      insertIssued: (contacts) =>
        Ref.modify(state, (s) => {
          const held = new Set(s.contacts.map((c) => codeKey(c.tenantId, c.code)))
          for (const contact of contacts) {
            const key = codeKey(contact.tenantId, contact.code)
            if (!s.issued.has(key) || held.has(key)) return [key, s] as const
            held.add(key)
          }
          return [null, { ...s, contacts: [...s.contacts, ...contacts] }] as const
        }).pipe(
          Effect.flatMap((refused) =>
            refused === null ? Effect.void : Effect.dieMessage(`${refused} is not an issued code free for a contact`)
          )
        ),
      codesByUtr: (tenantId, utrs) =>
        Ref.get(state).pipe(
          Effect.map((s) => {
            const wanted = new Set(utrs)
            const codes = new Map<string, string>()
            for (const c of s.contacts) {
              const utr = c.cisDetails?.utr
              if (c.tenantId !== tenantId || !utr || !wanted.has(utr)) continue
              const known = codes.get(utr)
              if (known === undefined || c.code < known) codes.set(utr, c.code)
            }
            return codes
          })
        ),
      insert: (contact) =>
        Ref.modify(state, (s) => {
          const key = codeKey(contact.tenantId, contact.code)
          if (s.issued.has(key)) return [false, s] as const
          return [true, { contacts: [...s.contacts, contact], issued: new Set(s.issued).add(key) }] as const
        }).pipe(
          Effect.flatMap((inserted) => (inserted ? Effect.void : Effect.fail(new DuplicateKey({ key: "code" }))))
        ),
      findByCode,
      // One fiber at a time runs here and nothing is shared between processes: there is nothing to lock.
      findByCodeForUpdate: findByCode,
      findByCodes: (tenantId, codes) =>
        Ref.get(state).pipe(
          Effect.map((s) => s.contacts.filter((c) => c.tenantId === tenantId && codes.includes(c.code)))
        ),
      update: replace,
      remove: (tenantId, id) =>
        Ref.update(state, (s) => ({
          ...s,
          contacts: s.contacts.filter((c) => !(c.tenantId === tenantId && c.id === id))
        })),
      list: (tenantId, query) =>
        Ref.get(state).pipe(
          Effect.map((s) => {
            const found = s.contacts.filter((c) => c.tenantId === tenantId).filter(matches(query))
            const items = found.sort(ordering(query)).slice(query.offset, query.offset + query.limit)
            return { items, totalCount: found.length }
          })
        )
    })
  })
)
