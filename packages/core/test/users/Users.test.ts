import { describe, expect, it } from "@effect/vitest"
import { type Context, Effect, Option, Schema } from "effect"
import { Email } from "../../src/Email.js"
import { Conflict, Unauthorized, ValidationFailed } from "../../src/Errors.js"
import type { UserId } from "../../src/Ids.js"
import { UserRepo } from "../../src/users/UserRepo.js"
import { Authentication } from "../../src/authentication/Authentication.js"
import { Users } from "../../src/users/Users.js"
import { User, UserName } from "../../src/users/User.js"
import { decodeInput } from "../../src/Validation.js"
import { aUser, claims, testApp, testAppWith } from "../TestApp.js"

const NewUser = Schema.Struct({ email: Email, name: UserName })

describe("Users.create", () => {
  it.effect("creates a user without a subject, at the clock's time", () =>
    Effect.gen(function* () {
      const user = yield* (yield* Users).create({ email: Email.make("ada@example.com"), name: "Ada Lovelace" })
      expect(user).toBeInstanceOf(User)
      expect(user).toMatchObject({ email: "ada@example.com", name: "Ada Lovelace", subject: null })
      expect(user.createdAt).toEqual(new Date("2026-11-21T09:00:00.000Z"))
      expect(yield* (yield* UserRepo).findByEmail(user.email)).toEqual(Option.some(user))
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuses a second user with the same email, naming the address", () =>
    Effect.gen(function* () {
      const first = yield* aUser("ada@example.com", "Ada")
      const error = yield* Effect.flip(aUser("ada@example.com", "Another Ada"))
      expect(error).toEqual(new Conflict({ detail: "A user with the email address ada@example.com already exists." }))
      expect(yield* (yield* UserRepo).findByEmail(first.email)).toEqual(Option.some(first))
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("input is normalised before it reaches the use case, so case and spaces cannot make a duplicate", () =>
    Effect.gen(function* () {
      const input = yield* decodeInput(NewUser)({ email: "  Ada@Example.COM ", name: "  Ada  " })
      expect(input).toEqual({ email: "ada@example.com", name: "Ada" })
      const users = yield* Users
      yield* users.create(input)
      const again = yield* decodeInput(NewUser)({ email: "ADA@example.com", name: "Ada" })
      expect(yield* Effect.flip(users.create(again))).toBeInstanceOf(Conflict)
    }).pipe(Effect.provide(testApp()))
  )
})

describe("Users.fromClaims", () => {
  it.effect("creates a user on first sight, then returns the same user for the same subject", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const created = yield* users.fromClaims(claims("sub-1", { email: "Bob@Example.com", name: " Bob Builder " }))
      expect(created).toMatchObject({ email: "bob@example.com", name: "Bob Builder", subject: "sub-1" })
      // Later tokens may carry other claims; the subject decides.
      const again = yield* users.fromClaims(claims("sub-1", { email: "other@example.com", name: "Robert" }))
      expect(again).toEqual(created)
      expect(yield* (yield* UserRepo).findByEmail(Email.make("other@example.com"))).toEqual(Option.none())
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("names a new user after their email address when the token has no name", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const unnamed = yield* users.fromClaims(claims("sub-1", { email: "carol@example.com" }))
      expect(unnamed).toMatchObject({ email: "carol@example.com", name: "carol@example.com", subject: "sub-1" })
      const blank = yield* users.fromClaims(claims("sub-2", { email: "dan@example.com", name: "   " }))
      expect(blank.name).toBe("dan@example.com")
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("links an existing user without a subject by email, taking the token's name", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const existing = yield* aUser("ada@example.com", "Ada")
      const linked = yield* users.fromClaims(claims("sub-ada", { email: "ADA@example.com", name: "Ada Lovelace" }))
      expect(linked).toEqual(new User({ ...existing, subject: "sub-ada", name: "Ada Lovelace" }))
      const repo = yield* UserRepo
      expect(yield* repo.findBySubject("sub-ada")).toEqual(Option.some(linked))
      expect(yield* users.fromClaims(claims("sub-ada"))).toEqual(linked)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("keeps the name of a linked user when the token has none", () =>
    Effect.gen(function* () {
      const existing = yield* aUser("ada@example.com", "Ada Lovelace")
      const linked = yield* (yield* Users).fromClaims(claims("sub-ada", { email: "ada@example.com" }))
      expect(linked).toEqual(new User({ ...existing, subject: "sub-ada" }))
      expect(yield* (yield* UserRepo).findById(existing.id)).toEqual(Option.some(linked))
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuses a token whose email belongs to a user linked to another subject", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const first = yield* users.fromClaims(claims("sub-1", { email: "ada@example.com", name: "Ada" }))
      const error = yield* Effect.flip(users.fromClaims(claims("sub-2", { email: "ada@example.com", name: "Mallory" })))
      expect(error).toEqual(new Unauthorized({ detail: "This email address is linked to another identity." }))
      const repo = yield* UserRepo
      expect(yield* repo.findBySubject("sub-2")).toEqual(Option.none())
      expect(yield* repo.findById(first.id)).toEqual(Option.some(first))
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("signs in a token without an email claim as a user without an address, the same one each time", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const first = yield* users.fromClaims(claims("sub-1", { email: undefined, name: "Ann" }))
      expect(first).toMatchObject({ email: null, name: "Ann", subject: "sub-1" })
      expect(yield* users.fromClaims(claims("sub-1", { email: undefined }))).toEqual(first)
      // Any number of users may have no address; one without a name is named after the subject.
      const second = yield* users.fromClaims(claims("sub-2", { email: undefined }))
      expect(second).toMatchObject({ email: null, name: "sub-2", subject: "sub-2" })
      expect(second.id).not.toBe(first.id)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuses a token whose email is not verified", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const noVerifiedEmail = new Unauthorized({
        detail: "The token's email address is not verified, which cisbook needs."
      })
      expect(yield* Effect.flip(users.fromClaims(claims("sub-2", { emailVerified: false })))).toEqual(noVerifiedEmail)
      // Not even an existing, unlinked user is linked through an unverified address.
      yield* aUser("ada@example.com")
      const unverified = claims("sub-3", { email: "ada@example.com", emailVerified: false })
      expect(yield* Effect.flip(users.fromClaims(unverified))).toEqual(noVerifiedEmail)
      expect(yield* (yield* UserRepo).findBySubject("sub-3")).toEqual(Option.none())
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("fails validation when the email claim is not an email address", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip((yield* Users).fromClaims(claims("sub-1", { email: "not an email" })))
      expect(error).toBeInstanceOf(ValidationFailed)
      expect(error).toMatchObject({ errors: { $: ["Must be an email address such as name@example.com"] } })
      expect(yield* (yield* UserRepo).findBySubject("sub-1")).toEqual(Option.none())
    }).pipe(Effect.provide(testApp()))
  )
})

describe("Users.fromClaims racing the first requests of the same token", () => {
  type Repo = Context.Tag.Service<UserRepo>
  const ada = claims("sub-ada", { email: "ada@example.com", name: "Ada" })
  const adaAsProvisioned = (id: string, subject: string | null) =>
    new User({ id: id as UserId, email: Email.make("ada@example.com"), name: "Ada", subject, createdAt: new Date(0) })

  /** The repository as a request sees it when another one writes `meanwhile` right after its first `read`. */
  const writtenAfterFirst =
    (read: "findBySubject" | "findByEmail", meanwhile: (repo: Repo) => Effect.Effect<unknown, unknown>) =>
    (repo: Repo) =>
      Effect.sync(() => {
        let raced = false
        const after = <A>(result: A) =>
          raced ? Effect.succeed(result) : ((raced = true), Effect.as(Effect.orDie(meanwhile(repo)), result))
        return UserRepo.of({
          ...repo,
          [read]: (key: string) => Effect.flatMap(repo[read](key as Email), after)
        })
      })

  it.effect("a request that found no user for its subject, then a user made for it, takes that user", () =>
    Effect.gen(function* () {
      const user = yield* (yield* Users).fromClaims(ada)
      expect(user).toEqual(adaAsProvisioned("00000000-0000-4000-8000-00000000ada1", "sub-ada"))
    }).pipe(
      Effect.provide(
        testAppWith(
          UserRepo,
          writtenAfterFirst("findBySubject", (repo) =>
            repo.insert(adaAsProvisioned("00000000-0000-4000-8000-00000000ada1", "sub-ada"))
          )
        )
      )
    )
  )

  it.effect("a request that found no user for its subject, then the invited user linked to it, takes that user", () =>
    Effect.gen(function* () {
      const invited = adaAsProvisioned("00000000-0000-4000-8000-00000000ada2", null)
      yield* (yield* UserRepo).insert(invited)
      const user = yield* (yield* Users).fromClaims(ada)
      expect(user).toEqual(new User({ ...invited, subject: "sub-ada" }))
    }).pipe(
      Effect.provide(
        testAppWith(
          UserRepo,
          writtenAfterFirst("findBySubject", (repo) =>
            repo.linkSubject("00000000-0000-4000-8000-00000000ada2" as UserId, "sub-ada", "Ada")
          )
        )
      )
    )
  )

  it.effect("a request that found nobody by its email, then saw the email invited, links the invited user", () =>
    Effect.gen(function* () {
      const user = yield* (yield* Users).fromClaims(ada)
      expect(user).toEqual(adaAsProvisioned("00000000-0000-4000-8000-00000000ada3", "sub-ada"))
    }).pipe(
      Effect.provide(
        testAppWith(
          UserRepo,
          writtenAfterFirst("findByEmail", (repo) =>
            repo.insert(adaAsProvisioned("00000000-0000-4000-8000-00000000ada3", null))
          )
        )
      )
    )
  )
})

describe("Authentication.byBearerToken", () => {
  const tokens = {
    good: claims("sub-1", { email: "ada@example.com", name: "Ada" }),
    "bad-email": claims("sub-2", { email: "ada-at-example.com" })
  }

  it.effect("finds or creates the token's user, with no API key", () =>
    Effect.gen(function* () {
      const auth = yield* Authentication
      const { apiKeyId, user } = yield* auth.byBearerToken("good")
      expect(user).toMatchObject({ email: "ada@example.com", name: "Ada", subject: "sub-1" })
      expect(apiKeyId).toBeNull()
      expect(yield* auth.byBearerToken("good")).toEqual({ user, apiKeyId: null })
    }).pipe(Effect.provide(testApp(tokens)))
  )

  it.effect("turns an invalid email claim into Unauthorized, and passes the verifier's refusal on", () =>
    Effect.gen(function* () {
      const auth = yield* Authentication
      expect(yield* Effect.flip(auth.byBearerToken("bad-email"))).toEqual(
        new Unauthorized({ detail: "The token's email claim is not a valid email address." })
      )
      expect(yield* Effect.flip(auth.byBearerToken("forged"))).toEqual(
        new Unauthorized({ detail: "The bearer token is not valid." })
      )
    }).pipe(Effect.provide(testApp(tokens)))
  )
})

describe("Users.ensureByEmail and byEmail", () => {
  it.effect("creates an unknown user by email, without a subject, named after the address", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const invited = yield* users.ensureByEmail(Email.make("new@example.com"))
      expect(invited).toMatchObject({ email: "new@example.com", name: "new@example.com", subject: null })
      expect(yield* users.byEmail(Email.make("new@example.com"))).toEqual(invited)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("returns the existing user unchanged", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const existing = yield* users.fromClaims(claims("sub-1", { email: "ada@example.com", name: "Ada" }))
      expect(yield* users.ensureByEmail(Email.make("ada@example.com"))).toEqual(existing)
      expect(yield* users.ensureByEmail(Email.make("ada@example.com"))).toEqual(existing)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("byEmail fails with NotFound for an unknown address", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip((yield* Users).byEmail(Email.make("nobody@example.com")))
      expect(error).toMatchObject({
        _tag: "NotFound",
        detail: "There is no user with the email address nobody@example.com."
      })
    }).pipe(Effect.provide(testApp()))
  )
})
