import { Connection, ConnectionParty, SharedDetails } from "@cisbook/core/connections/Connection"
import type { Contact } from "@cisbook/core/contacts/Contact"
import { Email } from "@cisbook/core/Email"
import { ConnectionId } from "@cisbook/core/Ids"
import { ConnectionRepo } from "@cisbook/core/connections/ConnectionRepo"
import type { Tenant } from "@cisbook/core/tenants/Tenant"
import { assert, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { identity, inserted } from "./ContactRepoContract.js"
import { at, type ContractIt, fresh, storedTenant } from "./Fixtures.js"

const party = (tenant: Tenant, contact: Contact) =>
  new ConnectionParty({
    tenantId: tenant.id,
    tenantCode: tenant.code,
    tenantName: tenant.name,
    contactId: contact.id,
    contactCode: contact.code
  })

const aContact = (tenant: Tenant) =>
  Effect.flatMap(fresh, ({ token }) =>
    inserted(tenant, { code: `K${token.slice(-7).toUpperCase()}`, isCustomer: true, isCisSubcontractor: true })
  )

const pending = (initiator: ConnectionParty, email: string, minutes = 0) =>
  Effect.map(
    fresh,
    ({ id }) =>
      new Connection({
        id: ConnectionId.make(id),
        direction: "Out",
        status: "Pending",
        initiator,
        receiver: null,
        email: Email.make(email),
        shared: new SharedDetails({
          name: initiator.tenantName,
          email: null,
          cisDetails: identity({ firstName: "Ann", lastName: "Ash", utr: "2234567890" })
        }),
        createdAt: at(minutes),
        connectedAt: null,
        rejectedAt: null
      })
  )

export const connectionRepoContract = (it: ContractIt) => {
  it.effect("shows a connection to its sides and, while Pending, to the tenants it was sent to", () =>
    Effect.gen(function* () {
      const repo = yield* ConnectionRepo
      const a = yield* storedTenant
      const b = yield* storedTenant
      const c = yield* storedTenant
      const { token } = yield* fresh
      const email = `to-${token}@example.com`
      const connection = yield* pending(party(a, yield* aContact(a)), email)
      yield* repo.insert(connection)
      const asA = { tenantId: a.id, emails: [] }
      const asB = { tenantId: b.id, emails: [Email.make(email)] }
      const asC = { tenantId: c.id, emails: [Email.make(`other-${token}@example.com`)] }
      expect(yield* repo.findVisible(asA, connection.id)).toEqual(Option.some(connection))
      expect(yield* repo.findVisible(asB, connection.id)).toEqual(Option.some(connection))
      expect(yield* repo.findVisible(asC, connection.id)).toEqual(Option.none())
      expect((yield* repo.listSentTo(asB, null)).map((x) => x.id)).toEqual([connection.id])
      expect(yield* repo.listSentTo(asB, "In")).toEqual([])
      expect(yield* repo.listSentTo({ tenantId: a.id, emails: [Email.make(email)] }, null)).toEqual([])
      const receiver = party(b, yield* aContact(b))
      yield* repo.connect(asC, connection.id, receiver, at(5))
      expect(yield* repo.findVisible(asC, connection.id)).toEqual(Option.none())
      yield* repo.connect(asB, connection.id, receiver, at(5))
      const connected = yield* repo.findVisible({ tenantId: b.id, emails: [] }, connection.id)
      assert(Option.isSome(connected))
      expect(connected.value).toEqual(
        new Connection({ ...connection, status: "Connected", receiver, connectedAt: at(5) })
      )
      expect(yield* repo.listSentTo(asB, null)).toEqual([])
      expect(yield* repo.listForContact(b.id, receiver.contactId, null)).toEqual([connected.value])
      yield* repo.remove(c.id, connection.id)
      expect(Option.isSome(yield* repo.findVisible(asA, connection.id))).toBe(true)
      yield* repo.remove(b.id, connection.id)
      expect(yield* repo.findVisible(asA, connection.id)).toEqual(Option.none())
      expect(yield* repo.listForContact(a.id, connection.initiator.contactId, null)).toEqual([])
    })
  )

  it.effect(
    "keeps a contact the side of one connection per direction, on either side; a rejected one still counts",
    () =>
      Effect.gen(function* () {
        const repo = yield* ConnectionRepo
        const a = yield* storedTenant
        const b = yield* storedTenant
        const { token } = yield* fresh
        const email = `side-${token}@example.com`
        const contact = yield* aContact(a)
        const first = yield* pending(party(a, contact), email, 1)
        yield* repo.insert(first)
        const second = yield* pending(party(a, contact), email, 2)
        expect((yield* Effect.flip(repo.insert(second))).key).toBe("side")
        const inward = new Connection({ ...(yield* pending(party(a, contact), email, 3)), direction: "In" })
        yield* repo.insert(inward)
        expect(
          (yield* repo.listSentTo({ tenantId: b.id, emails: [Email.make(email)] }, null)).map((c) => c.id)
        ).toEqual([inward.id, first.id])
        // b's contact already initiated an Out connection: it cannot receive another one.
        const bContact = yield* aContact(b)
        yield* repo.insert(yield* pending(party(b, bContact), `x-${token}@example.com`))
        const asB = { tenantId: b.id, emails: [Email.make(email)] }
        expect((yield* Effect.flip(repo.connect(asB, first.id, party(b, bContact), at(4)))).key).toBe("side")
        yield* repo.reject(asB, first.id, at(6))
        const rejected = yield* repo.findVisible({ tenantId: a.id, emails: [] }, first.id)
        assert(Option.isSome(rejected))
        expect(rejected.value).toMatchObject({ status: "Rejected", rejectedAt: at(6) })
        expect(yield* repo.findVisible(asB, first.id)).toEqual(Option.none())
        expect((yield* repo.listForContact(a.id, contact.id, "Out")).map((c) => c.id)).toEqual([first.id])
        expect((yield* Effect.flip(repo.insert(second))).key).toBe("side")
      })
  )

  it.effect(
    "lists the Connected connections whose side is one of the tenant's contacts, earliest connected first",
    () =>
      Effect.gen(function* () {
        const repo = yield* ConnectionRepo
        const contractor = yield* storedTenant
        const sub = yield* storedTenant
        const other = yield* storedTenant
        const { token } = yield* fresh
        const email = `listed-${token}@example.com`
        const asSub = { tenantId: sub.id, emails: [Email.make(email)] }
        /** A connection the contractor's `contact` initiated (In), accepted by the subcontractor at `minutes`. */
        const connected = (contact: Contact, minutes: number) =>
          Effect.gen(function* () {
            const c = new Connection({ ...(yield* pending(party(contractor, contact), email)), direction: "In" })
            yield* repo.insert(c)
            yield* repo.connect(asSub, c.id, party(sub, yield* aContact(sub)), at(minutes))
            return c.id
          })
        const [early, late, pendingOne, elsewhere] = [
          yield* aContact(contractor),
          yield* aContact(contractor),
          yield* aContact(contractor),
          yield* aContact(other)
        ]
        const lateId = yield* connected(late, 9)
        const earlyId = yield* connected(early, 3)
        yield* repo.insert(yield* pending(party(contractor, pendingOne!), email))
        // Another tenant's connection is not the contractor's, whichever contact ids are asked for.
        const theirs = new Connection({ ...(yield* pending(party(other, elsewhere!), email)), direction: "In" })
        yield* repo.insert(theirs)
        yield* repo.connect(asSub, theirs.id, party(sub, yield* aContact(sub)), at(1))

        const asked = [early!.id, late!.id, pendingOne!.id, elsewhere!.id]
        const listed = yield* repo.listConnected(contractor.id, asked)
        expect(listed.map((c) => c.id)).toEqual([earlyId, lateId])
        expect(listed[0]).toMatchObject({
          status: "Connected",
          initiator: { tenantId: contractor.id, contactId: early!.id },
          receiver: { tenantId: sub.id, tenantCode: sub.code, tenantName: sub.name }
        })
        // The subcontractor's side of the same connections is its own contacts.
        const subSide = listed.map((c) => c.receiver!.contactId)
        expect((yield* repo.listConnected(sub.id, subSide)).map((c) => c.id)).toEqual([earlyId, lateId])
        expect(yield* repo.listConnected(contractor.id, [])).toEqual([])
        yield* repo.remove(contractor.id, earlyId)
        expect((yield* repo.listConnected(contractor.id, asked)).map((c) => c.id)).toEqual([lateId])
      })
  )
}
