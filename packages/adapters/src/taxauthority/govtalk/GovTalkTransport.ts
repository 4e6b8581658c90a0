import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { TaxAuthorityUnavailable } from "@cisbook/core/taxauthority/TaxAuthority"
import { Duration, Effect } from "effect"
import { type GovTalkAnswer, govTalkAnswer } from "./GovTalkAnswer.js"

/** The longest one exchange with the Transaction Engine may take before it counts as unavailable. */
const EXCHANGE_TIMEOUT = Duration.seconds(30)

/**
 * Posts a GovTalk message and reads the answer. A connection that fails, a 5xx (or any answer
 * that is not a GovTalk message) and a timeout are the Transaction Engine being unavailable: the
 * caller tries again later.
 */
export const govTalkExchange = (url: string, message: string) =>
  Effect.flatMap(HttpClient.HttpClient, (http) =>
    http.execute(HttpClientRequest.post(url).pipe(HttpClientRequest.bodyText(message, "text/xml; charset=UTF-8"))).pipe(
      Effect.flatMap((response) =>
        Effect.flatMap(response.text, (body) =>
          response.status >= 500
            ? Effect.fail(`The Transaction Engine answered ${response.status}`)
            : Effect.try({
                try: () => govTalkAnswer(body),
                catch: (error) =>
                  `The Transaction Engine answered ${response.status} with no GovTalk answer: ${String(error)}`
              })
        )
      ),
      Effect.scoped,
      Effect.timeoutFail({
        duration: EXCHANGE_TIMEOUT,
        onTimeout: () => "The Transaction Engine did not answer in time"
      }),
      Effect.mapError(
        (error) =>
          new TaxAuthorityUnavailable({
            message: typeof error === "string" ? error : `The Transaction Engine could not be reached: ${error.message}`
          })
      )
    )
  ) satisfies Effect.Effect<GovTalkAnswer, TaxAuthorityUnavailable, HttpClient.HttpClient>
