import type { User } from "@cisbook/core/users/User"
import { MeDto } from "@cisbook/sdk/UserDtos"

export const meDto = (user: User) => new MeDto({ id: user.id, email: user.email, name: user.name })
