import type { QueuedMail } from "@cisbook/core/mail/TenantMail"
import { QueuedMailDto } from "@cisbook/sdk/MailDtos"

export const queuedMailDto = (queued: QueuedMail) => new QueuedMailDto({ ...queued })
