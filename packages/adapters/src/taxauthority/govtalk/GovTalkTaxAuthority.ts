import { TaxAuthority } from "@cisbook/core/taxauthority/TaxAuthority"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { Effect, Layer } from "effect"
import { type GovTalkOptions, govTalkProtocol } from "./GovTalkProtocol.js"
import { govTalkReturns } from "./GovTalkReturns.js"
import { govTalkVerifications } from "./GovTalkVerifications.js"

/**
 * The tax authority over HMRC's Transaction Engine (GovTalk), for HMRC itself, its External Test
 * Service, or the local Transaction Engine: returns filed (GovTalkReturns) and subcontractors
 * verified (GovTalkVerifications), each message's life with HMRC in GovTalkProtocol.
 */
export const govTalkTaxAuthority = (options: GovTalkOptions) =>
  Layer.effect(
    TaxAuthority,
    Effect.map(govTalkProtocol(options), (protocol) =>
      TaxAuthority.of({ ...govTalkReturns(protocol), ...govTalkVerifications(protocol) })
    )
  ).pipe(Layer.provide(FetchHttpClient.layer))
