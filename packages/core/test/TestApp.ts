import { identityVerifierFake } from "@cisbook/testkit/IdentityVerifierFake"
import { MemoryPorts } from "@cisbook/testkit/MemoryPorts"
import { type Context, Effect, Layer } from "effect"
import type { PlainCisDetails } from "../src/cis/CisDetailsFormat.js"
import { Email } from "../src/Email.js"
import { UseCasesLive } from "../src/UseCases.js"
import type { IdentityClaims } from "../src/users/User.js"
import { Users } from "../src/users/Users.js"

/** Every use case over fresh in-memory ports; the identity verifier accepts exactly `tokens`. */
export const testApp = (tokens: Readonly<Record<string, IdentityClaims>> = {}) =>
  UseCasesLive.pipe(Layer.provideMerge(MemoryPorts), Layer.provideMerge(identityVerifierFake(tokens)))

/** {@link testApp} with one port replaced by a wrapper of its in-memory self (to stage a race, say). */
export const testAppWith = <I, S>(tag: Context.Tag<I, S>, wrap: (port: S) => Effect.Effect<S>) =>
  UseCasesLive.pipe(
    Layer.provideMerge(Layer.effect(tag, Effect.flatMap(tag, wrap))),
    Layer.provideMerge(MemoryPorts),
    Layer.provideMerge(identityVerifierFake({}))
  )

/** Claims of a verified token: a verified email by default, no name. */
export const claims = (subject: string, fields: Partial<Omit<IdentityClaims, "subject">> = {}): IdentityClaims => ({
  subject,
  email: "email" in fields ? fields.email : `${subject}@example.com`,
  emailVerified: "emailVerified" in fields ? fields.emailVerified : true,
  name: fields.name
})

/** A user made the way the admin CLI makes one. */
export const aUser = (email: string, name = "Someone") =>
  Effect.flatMap(Users, (users) => users.create({ email: Email.make(email), name }))

/** A CIS identity as a request carries it: the fields given, every other member null. */
export const plainCis = (fields: Partial<PlainCisDetails> = {}): PlainCisDetails => ({
  type: "SoleTrader",
  title: null,
  firstName: null,
  secondName: null,
  lastName: null,
  tradingName: null,
  utr: null,
  niNumber: null,
  companyNumber: null,
  partnerUtr: null,
  ...fields
})

/** A use case run for a tenant: `contacts.list(request).pipe(asMember(owner, "acme-builders"))`, or `asSupport(code)`. */
export { asMember, asSupport } from "@cisbook/core/tenants/ActingFor"

/** A use case run as a user: `keys.issue("laptop").pipe(asUser(ada))`. */
export { asUser } from "@cisbook/core/users/ActingAs"
