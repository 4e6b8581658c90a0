import { Effect, Option } from "effect"
import type { Email } from "../Email.js"
import { Conflict, NotFound, Unauthorized, type ValidationFailed } from "../Errors.js"
import type { UserId } from "../Ids.js"
import { Clock } from "../ports/Clock.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import { UserRepo } from "../ports/UserRepo.js"
import { Email as EmailSchema } from "../Email.js"
import { User, type IdentityClaims } from "../User.js"
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

    const build = (input: NewUser, subject: string | null) =>
      Effect.all({ id: ids.uuid, createdAt: clock.now }).pipe(
        Effect.map(
          ({ createdAt, id }) =>
            new User({ id: id as UserId, email: input.email, name: input.name, subject, createdAt })
        )
      )

    const create = (input: NewUser): Effect.Effect<User, Conflict> =>
      build(input, null).pipe(
        Effect.tap((user) => repo.insert(user)),
        Effect.catchTag("DuplicateKey", () =>
          Effect.fail(new Conflict({ detail: `A user with the email address ${input.email} already exists.` }))
        ),
        Effect.withSpan("Users.create")
      )

    /** The user a token belongs to: matched by subject, else linked by email, else created. */
    const fromClaims = (claims: IdentityClaims): Effect.Effect<User, Unauthorized | ValidationFailed> =>
      Effect.gen(function* () {
        const known = yield* repo.findBySubject(claims.subject)
        if (Option.isSome(known)) return known.value
        if (claims.email === undefined || claims.emailVerified === false) {
          return yield* new Unauthorized({ detail: "The token carries no verified email claim, which cisbook needs." })
        }
        const email = yield* decodeInput(EmailSchema)(claims.email)
        const claimedName = claims.name?.trim()
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
        const user = yield* build({ email, name: claimedName || email }, claims.subject)
        // Two first requests with one token can race; the loser reads the winner's row.
        return yield* repo.insert(user).pipe(
          Effect.as(user),
          Effect.catchTag("DuplicateKey", () =>
            repo.findBySubject(claims.subject).pipe(
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
