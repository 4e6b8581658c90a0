import { AppLinks } from "@cisbook/core/system/AppLinks"
import { Layer } from "effect"

export const APP_URL = "https://app.cisbook.test"

/** Links into a front end at {@link APP_URL}. */
export const AppLinksFake = Layer.succeed(AppLinks, AppLinks.of({ connection: (id) => `${APP_URL}/connections/${id}` }))
