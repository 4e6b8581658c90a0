/** A file sent with a mail, such as a statement's PDF. */
export interface MailAttachment {
  readonly filename: string
  readonly contentType: string
  readonly content: Uint8Array
}
