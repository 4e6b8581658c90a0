import { MailStatus } from "@cisbook/core/mail/TenantMail"
import { Schema } from "effect"
import { optional, requestBody } from "./RequestBody.js"

export const InvoiceMailRequest = requestBody("InvoiceMailRequest", {
  to: optional(
    Schema.String.annotations({
      description: "The address to send to; without it, the customer's email address",
      format: "email",
      examples: ["accounts@acme.example"]
    })
  )
}).annotations({ examples: [{}, { to: "accounts@acme.example" }] })

export class QueuedMailDto extends Schema.Class<QueuedMailDto>("QueuedMailDto")(
  {
    id: Schema.String.annotations({ description: "The mail's id in the outbox (see pnpm cli mail list)" }),
    to: Schema.String,
    subject: Schema.String.annotations({ examples: ["Invoice INV-000042 from Lovelace Builders Ltd"] }),
    status: MailStatus.annotations({ description: "Queued: the mail sender sends it over SMTP shortly" })
  },
  {
    description: "A mail written to the outbox, to be sent by the server's mail sender",
    examples: [
      {
        id: "0196a5f2-52c1-7c3a-9d1e-8f27c1b6a0ff",
        to: "accounts@acme.example",
        subject: "Invoice INV-000042 from Lovelace Builders Ltd",
        status: "Queued"
      } as never
    ]
  }
) {}
