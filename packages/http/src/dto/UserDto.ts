import type { Principal } from "@cisbook/core/users/CurrentUser"
import { MeDto } from "@cisbook/sdk/UserDtos"

export const meDto = ({ user }: Principal) => new MeDto({ id: user.id, email: user.email, name: user.name })
