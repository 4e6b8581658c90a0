import { UserRepo } from "@cisbook/core/users/UserRepo"
import { User } from "@cisbook/core/users/User"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { uniqueWrite } from "./UniqueWrite.js"

export const UserRepoSql = Layer.effect(
  UserRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const userWrite = uniqueWrite(sql, { users_email_key: "email", users_subject_key: "subject" })
    const selectUser = sql`SELECT id, email, name, subject, created_at FROM users`

    const findById = SqlSchema.findOne({
      Request: Schema.String,
      Result: User,
      execute: (id) => sql`${selectUser} WHERE id = ${id}`
    })
    const findByEmail = SqlSchema.findOne({
      Request: Schema.String,
      Result: User,
      execute: (email) => sql`${selectUser} WHERE email = ${email}`
    })
    const findBySubject = SqlSchema.findOne({
      Request: Schema.String,
      Result: User,
      execute: (subject) => sql`${selectUser} WHERE subject = ${subject}`
    })

    return UserRepo.of({
      insert: (u) =>
        sql`INSERT INTO users ${sql.insert({
          id: u.id,
          email: u.email,
          name: u.name,
          subject: u.subject,
          createdAt: u.createdAt
        })}`.pipe(Effect.asVoid, userWrite),
      findById: (id) => findById(id).pipe(Effect.orDie),
      findByEmail: (email) => findByEmail(email).pipe(Effect.orDie),
      findBySubject: (subject) => findBySubject(subject).pipe(Effect.orDie),
      linkSubject: (id, subject, name) =>
        sql`UPDATE users SET subject = ${subject}, name = ${name} WHERE id = ${id} AND subject IS NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          userWrite
        )
    })
  })
)
