import { Effect, Option } from "effect"
import type { Email } from "../Email.js"
import { Conflict, NotFound, Unauthorized, type ValidationFailed } from "../Errors.js"
import type { UserId } from "../Ids.js"
import { Clock } from "../system/Clock.js"
import { IdGenerator } from "../system/IdGenerator.js"
import { UserRepo } from "./UserRepo.js"
import { Email as EmailSchema } from "../Email.js"
import { User, type IdentityClaims, type UserWithEmail } from "./User.js"
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

    const linkedElsewhere = new Unauthorized({ detail: "This email address is linked to another identity." })

    /**
     * A front end fires its first requests with a new token at once, so provisioning its user
     * races itself: a request that lost (its insert or link refused) takes the user the winner
     * provisioned for the same subject.
     */
    const provisionedMeanwhile = (subject: string) => repo.findBySubject(subject)

    const insertOrRead = (user: User, subject: string): Effect.Effect<Option.Option<User>> =>
      repo.insert(user).pipe(
        Effect.as(Option.some(user)),
        Effect.catchTag("DuplicateKey", () => provisionedMeanwhile(subject))
      )

    /** Links the user invited by this email to the subject, else creates one; none if it lost a race. */
    const linkOrCreate = (subject: string, email: Email, claimedName: string | undefined) =>
      Effect.gen(function* () {
        const byEmail = yield* repo.findByEmail(email)
        if (Option.isNone(byEmail)) {
          return yield* insertOrRead(yield* build({ email, name: claimedName || email }, subject), subject)
        }
        // A token without a name keeps the name the user already has.
        const name = claimedName || byEmail.value.name
        const linked = yield* repo.linkSubject(byEmail.value.id, subject, name).pipe(Effect.orElseSucceed(() => false))
        if (linked) return Option.some(new User({ ...byEmail.value, subject, name }))
        return yield* provisionedMeanwhile(subject)
      })

    /** The user a token belongs to: matched by subject, else linked by email, else created. */
    const fromClaims = (claims: IdentityClaims): Effect.Effect<User, Unauthorized | ValidationFailed> =>
      Effect.gen(function* () {
        const known = yield* repo.findBySubject(claims.subject)
        if (Option.isSome(known)) return known.value
        const claimedName = claims.name?.trim()
        if (claims.email === undefined) {
          // Such a caller can use everything but what needs an address (a mandate setup says so).
          const user = yield* build({ email: null, name: claimedName || claims.subject }, claims.subject)
          return yield* insertOrRead(user, claims.subject).pipe(
            Effect.flatten,
            Effect.orElseFail(() => linkedElsewhere)
          )
        }
        if (claims.emailVerified === false) {
          return yield* new Unauthorized({ detail: "The token's email address is not verified, which cisbook needs." })
        }
        const email = yield* decodeInput(EmailSchema)(claims.email)
        // Lost to a user made for the email at the same time (an invitation, say): once more sees it.
        const attempt = linkOrCreate(claims.subject, email, claimedName).pipe(Effect.flatten)
        return yield* attempt.pipe(
          Effect.orElse(() => attempt),
          Effect.orElseFail(() => linkedElsewhere)
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
