import { afterMailAttempt, MAX_MAIL_ATTEMPTS } from "../../src/mail/MailSchedule.js"
import { describe, expect, it } from "@effect/vitest"

const at = new Date("2026-11-21T09:00:00.000Z")
const deferred = { _tag: "Deferred", error: "451 Try again later" } as const

describe("mail schedule", () => {
  it("marks an accepted mail Sent, with no attempt to come", () => {
    expect(afterMailAttempt(3, at, { _tag: "Accepted" })).toEqual({
      status: "Sent",
      attempts: 3,
      nextAttemptAt: null,
      lastError: null,
      sentAt: at
    })
  })

  it("backs off after each deferred attempt, over about a day, and fails after the tenth", () => {
    let attempts = 0
    let now = at
    let progress = afterMailAttempt(++attempts, now, deferred)
    const delays: Array<number> = []
    while (progress.status === "Queued") {
      delays.push(progress.nextAttemptAt!.getTime() - now.getTime())
      now = progress.nextAttemptAt!
      progress = afterMailAttempt(++attempts, now, deferred)
    }
    expect(attempts).toBe(MAX_MAIL_ATTEMPTS)
    expect(progress).toEqual({
      status: "Failed",
      attempts: 10,
      nextAttemptAt: null,
      lastError: deferred.error,
      sentAt: null
    })
    expect(delays[0]).toBe(60_000)
    expect(delays.every((delay, i) => i === 0 || delay > delays[i - 1]!)).toBe(true)
    const total = now.getTime() - at.getTime()
    expect(total).toBeGreaterThan(18 * 3600_000)
    expect(total).toBeLessThan(26 * 3600_000)
  })

  it("fails a rejected mail at once", () => {
    expect(afterMailAttempt(1, at, { _tag: "Rejected", error: "550 No such user" })).toEqual({
      status: "Failed",
      attempts: 1,
      nextAttemptAt: null,
      lastError: "550 No such user",
      sentAt: null
    })
  })
})
