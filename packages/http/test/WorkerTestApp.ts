import { SqlPortsLive } from "@cisbook/adapters/sql/SqlPortsLive"
import { FilingCheckHmrc } from "@cisbook/adapters/taxauthority/govtalk/FilingCheckHmrc"
import { SystemLive } from "@cisbook/adapters/system/SystemLive"
import { AppLinksFake } from "@cisbook/testkit/AppLinksFake"
import { webhookTransport } from "@cisbook/adapters/webhooks/WebhookTransportLive"
import { UseCasesLive } from "@cisbook/core/UseCases"
import { goCardlessNotificationSignature } from "@cisbook/adapters/gocardless/GoCardlessNotificationSignature"
import { SANDBOX_NOTIFICATION_SECRET } from "@cisbook/adapters/gocardless/GoCardlessNotificationSecret"
import { BillingTermsFixed } from "@cisbook/testkit/BillingTermsFixed"
import { DirectDebitFake } from "@cisbook/testkit/DirectDebitFake"
import { DocumentRendererFake } from "@cisbook/testkit/DocumentRendererFake"
import { identityVerifierFake } from "@cisbook/testkit/IdentityVerifierFake"
import type { Clock } from "@cisbook/core/system/Clock"
import type { Crypto } from "@cisbook/core/system/Crypto"
import type { IdGenerator } from "@cisbook/core/system/IdGenerator"
import type { SqlClient } from "@effect/sql"
import { Effect, Layer, Redacted, Schedule } from "effect"
import { GovTalkSandbox } from "./GovTalkSandbox.js"

/**
 * The use cases over the SQL ports and the real
 * HTTP sender; private targets allowed (receivers are on loopback); the tax authority is the GovTalk
 * adapter over a local Transaction Engine of its own. `system` gives the clock, ids
 * and crypto: the real ones unless a test says.
 */
export const appOver = <A, E>(
  database: Layer.Layer<A | SqlClient.SqlClient, E>,
  system: Layer.Layer<Clock | IdGenerator | Crypto> = SystemLive
) =>
  UseCasesLive.pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        SqlPortsLive,
        webhookTransport({ allowPrivateTargets: true }),
        identityVerifierFake({}),
        DirectDebitFake,
        BillingTermsFixed,
        DocumentRendererFake,
        goCardlessNotificationSignature(Redacted.make(SANDBOX_NOTIFICATION_SECRET)),
        GovTalkSandbox,
        FilingCheckHmrc,
        AppLinksFake
      )
    ),
    Layer.provideMerge(system),
    Layer.provideMerge(database)
  )

/** Reads until `done` holds, for up to 20 seconds, as a worker gets there in its own time. */
export const eventually = <A, E, R>(read: Effect.Effect<A, E, R>, done: (a: A) => boolean) =>
  read.pipe(
    Effect.filterOrFail(done, (a) => new Error(`Not there yet: ${JSON.stringify(a)}`)),
    Effect.retry(Schedule.spaced("25 millis").pipe(Schedule.upTo("20 seconds"))),
    Effect.orDie
  )
