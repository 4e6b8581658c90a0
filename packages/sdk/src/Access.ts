import type { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware } from "@effect/platform"
import { Authenticate } from "./Authenticate.js"
import { TenantMember, TenantMemberOrNotFound } from "./TenantMember.js"

/*
 * Who may call an operation, declared once for a group (or for each of its endpoints) by one of
 * this module's functions, the only code that adds the access middlewares. The platform runs the
 * middlewares last declared first, and a tenant middleware needs the CurrentUser that
 * Authenticate provides (see TenantMember): each function declares Authenticate after it. The
 * platform cannot check that order (effect 3's HttpApiMiddleware has no `requires`), so the
 * compiler checks that nothing else declares them: a group or endpoint that names one of them
 * itself, or is changed after its access is declared, does not compile, nor does an API with a
 * group whose access is not declared (`everyAccessDeclared`).
 */

type AccessMiddleware = Authenticate | TenantMember | TenantMemberOrNotFound

declare const accessMark: unique symbol

/** Carried by the types only: the group's or endpoint's access is declared here. */
export interface AccessDeclared {
  readonly [accessMark]: true
}

type Target = HttpApiGroup.HttpApiGroup.Any | HttpApiEndpoint.HttpApiEndpoint.Any

/** The middlewares named by a group (or any of its endpoints) or an endpoint. */
type Named<T> =
  T extends HttpApiGroup.HttpApiGroup<infer _Id, infer Endpoints, infer _Error, infer R, infer _TopLevel>
    ? R | HttpApiEndpoint.HttpApiEndpoint.Context<Endpoints>
    : HttpApiEndpoint.HttpApiEndpoint.Context<T>

/** Refuses (as a type no value has) a target that names an access middleware already. */
type Undeclared<T> = [Extract<Named<T>, AccessMiddleware>] extends [never]
  ? unknown
  : "Declare who may call it once, with one of sdk/Access's functions"

/** The target with the middleware `I` added, as its `middleware` method types it. */
type With<T, I extends HttpApiMiddleware.HttpApiMiddleware.AnyId> =
  T extends HttpApiGroup.HttpApiGroup<infer Id, infer Endpoints, infer Error, infer R, infer TopLevel>
    ? HttpApiGroup.HttpApiGroup<
        Id,
        Endpoints,
        Error | HttpApiMiddleware.HttpApiMiddleware.Error<I>,
        R | I | HttpApiMiddleware.HttpApiMiddleware.ErrorContext<I>,
        TopLevel
      >
    : T extends HttpApiEndpoint.HttpApiEndpoint<
          infer Name,
          infer Method,
          infer Path,
          infer UrlParams,
          infer Payload,
          infer Headers,
          infer Success,
          infer Error,
          infer R,
          infer RE
        >
      ? HttpApiEndpoint.HttpApiEndpoint<
          Name,
          Method,
          Path,
          UrlParams,
          Payload,
          Headers,
          Success,
          Error | HttpApiMiddleware.HttpApiMiddleware.Error<I>,
          R | I,
          RE | HttpApiMiddleware.HttpApiMiddleware.ErrorContext<I>
        >
      : never

type AccessTag = typeof Authenticate | typeof TenantMember | typeof TenantMemberOrNotFound

/** Groups and endpoints alike, as far as adding an access middleware goes. */
interface Declaring {
  readonly middleware: (tag: AccessTag) => Declaring
}

const declared = <T>(target: Target, ...tags: ReadonlyArray<AccessTag>) =>
  tags.reduce((declaring, tag) => declaring.middleware(tag), target as unknown as Declaring) as unknown as T &
    AccessDeclared

/** Anyone may call it: no credentials. */
export const forAnyone = <T extends Target>(target: T & Undeclared<T>) => declared<T>(target)

/** Any authenticated user may call it: Authenticate provides CurrentUser. */
export const forUsers = <T extends Target>(target: T & Undeclared<T>) =>
  declared<With<T, Authenticate>>(target, Authenticate)

/**
 * A member of the path's tenant may call it (403 for another user): Authenticate, then
 * TenantMember, which provides CurrentTenant.
 */
export const forTenantMembers = <T extends Target>(target: T & Undeclared<T>) =>
  declared<With<With<T, TenantMember>, Authenticate>>(target, TenantMember, Authenticate)

/**
 * A member of the path's tenant may call it, and another user is answered 404 as for a tenant
 * that does not exist: Authenticate, then TenantMemberOrNotFound.
 */
export const forTenantMembersOrNotFound = <T extends Target>(target: T & Undeclared<T>) =>
  declared<With<With<T, TenantMemberOrNotFound>, Authenticate>>(target, TenantMemberOrNotFound, Authenticate)

/** A group whose access is not declared here, for itself or for each of its endpoints. */
type UndeclaredGroup<G> = G extends AccessDeclared
  ? never
  : G extends HttpApiGroup.HttpApiGroup<infer _Id, infer Endpoints, infer _Error, infer R, infer _TopLevel>
    ? [Exclude<Endpoints, AccessDeclared> | Extract<R, AccessMiddleware>] extends [never]
      ? never
      : G
    : G

/** The API as it is, when every one of its groups declares its access here; otherwise it does not compile. */
export const everyAccessDeclared = <A extends HttpApi.HttpApi.Any>(
  api: A &
    (A extends HttpApi.HttpApi<infer _Id, infer Groups, infer _Error, infer _R>
      ? [UndeclaredGroup<Groups>] extends [never]
        ? unknown
        : { readonly "Declare who may call each of these groups with sdk/Access": UndeclaredGroup<Groups> }
      : never)
) => api as A
