import { Effect, Option } from "effect"
import type { Email } from "../Email.js"
import { Conflict, NotFound, Unauthorized, type ValidationFailed } from "../Errors.js"
import type { UserId } from "../Ids.js"
import { Clock } from "../ports/Clock.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import { UserRepo } from "../ports/UserRepo.js"
import { Email as EmailSchema } from "../Email.js"
import { User, type IdentityClaims, type UserWithEmail } from "../User.js"
import { decodeInput } from "../Validation.js"

export interface NewUser {
  readonly email: Email
  readonly name: string
}

export class Users extends Effect.Service<Users>()("core/Users", {
  effect: Effect.gen(function* () {
    const repo = yield* UserRepo
    const clock = yield* Clock
    const ids = yield* IdGenerator

    const build = (input: { readonly email: Email | null; readonly name: string }, subject: string | null) =>
      Effect.all({ id: ids.uuid, createdAt: clock.now }).pipe(
        Effect.map(
          ({ createdAt, id }) =>
            new User({ id: id as UserId, email: input.email, name: input.name, subject, createdAt })
        )
      )

    const create = (input: NewUser): Effect.Effect<UserWithEmail, Conflict> =>
      build(input, null).pipe(
        Effect.map((user) => user as UserWithEmail),
        Effect.tap((user) => repo.insert(user)),
        Effect.catchTag("DuplicateKey", () =>
          Effect.fail(new Conflict({ detail: `A user with the email address ${input.email} already exists.` }))
        ),
        Effect.withSpan("Users.create")
      )

    // Two first requests with one token can race; the loser reads the winner's row.
    const insertOrRead = (user: User): Effect.Effect<User, Unauthorized> =>
      repo.insert(user).pipe(
        Effect.as(user),
        Effect.catchTag("DuplicateKey", () =>
          repo.findBySubject(user.subject ?? "").pipe(
            Effect.flatMap(
              Option.match({
                onNone: () =>
                  Effect.fail(new Unauthorized({ detail: "This email address is linked to another identity." })),
                onSome: Effect.succeed
              })
            )
          )
        )
      )

    /** The user a token belongs to: matched by subject, else linked by email, else created. */
    const fromClaims = (claims: IdentityClaims): Effect.Effect<User, Unauthorized | ValidationFailed> =>
      Effect.gen(function* () {
        const known = yield* repo.findBySubject(claims.subject)
        if (Option.isSome(known)) return known.value
        const claimedName = claims.name?.trim()
        if (claims.email === undefined) {
          // Such a caller can use everything but what needs an address (a mandate setup says so).
          return yield* insertOrRead(yield* build({ email: null, name: claimedName || claims.subject }, claims.subject))
        }
        if (claims.emailVerified === false) {
          return yield* new Unauthorized({ detail: "The token's email address is not verified, which cisbook needs." })
        }
        const email = yield* decodeInput(EmailSchema)(claims.email)
        const byEmail = yield* repo.findByEmail(email)
        if (Option.isSome(byEmail)) {
          // A token without a name keeps the name the user already has.
          const name = claimedName || byEmail.value.name
          const linked = yield* repo
            .linkSubject(byEmail.value.id, claims.subject, name)
            .pipe(Effect.orElseSucceed(() => false))
          if (!linked) {
            return yield* new Unauthorized({ detail: "This email address is linked to another identity." })
          }
          return new User({ ...byEmail.value, subject: claims.subject, name })
        }
        return yield* insertOrRead(yield* build({ email, name: claimedName || email }, claims.subject))
      }).pipe(Effect.withSpan("Users.fromClaims"))

    const byEmail = (email: Email): Effect.Effect<User, NotFound> =>
      repo.findByEmail(email).pipe(
        Effect.flatMap(
          Option.match({
            onNone: () => Effect.fail(new NotFound({ detail: `There is no user with the email address ${email}.` })),
            onSome: Effect.succeed
          })
        )
      )

    /** The user with this email, created (without a subject) when unknown so far. */
    const ensureByEmail = (email: Email): Effect.Effect<User> =>
      repo.findByEmail(email).pipe(
        Effect.flatMap(
          Option.match({
            onSome: Effect.succeed,
            onNone: () =>
              build({ email, name: email }, null).pipe(
                Effect.tap((user) => repo.insert(user)),
                Effect.catchTag("DuplicateKey", () => byEmail(email).pipe(Effect.orDie))
              )
          })
        )
      )

    return { create, fromClaims, byEmail, ensureByEmail } as const
  })
}) {}
