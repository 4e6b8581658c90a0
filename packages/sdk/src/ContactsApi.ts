import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { forTenantMembers } from "./Access.js"
import {
  ContactDto,
  ContactDtoPagedResult,
  ContactListParams,
  CreateContactRequest,
  UpdateContactRequest
} from "./ContactDtos.js"
import { ConflictProblem, ForbiddenProblem, NotFoundProblem, RefusedProblem, ValidationProblem } from "./Problem.js"
import { tenantParam } from "./TenantsApi.js"

const codeParam = HttpApiSchema.param("code", Schema.String)

const events = "Records the event contact.created, and subcontractor.created when the contact is a CIS subcontractor."

export class ContactsApi extends HttpApiGroup.make("contacts")
  .add(
    HttpApiEndpoint.get("listContacts")`/tenants/${tenantParam}/contacts`
      .setUrlParams(ContactListParams)
      .addSuccess(ContactDtoPagedResult)
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "A page of the tenant's contacts: searched, filtered and sorted")
      .annotate(
        OpenApi.Description,
        "Sorted by name (case-insensitively) unless sortBy says otherwise. A limit below 1 or a negative offset is 400."
      )
  )
  .add(
    HttpApiEndpoint.post("createContact")`/tenants/${tenantParam}/contacts`
      .setPayload(CreateContactRequest)
      .addSuccess(ContactDto, { status: 201 })
      .addError(ConflictProblem)
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Create a contact; its code is generated from its name")
      .annotate(
        OpenApi.Description,
        `The code is the name's upper-case letters and digits, at most 8, made unique with a numeric suffix (ACMEBUIL, ACMEBUI2, ...); a code is never used again, even after its contact is deleted. A CIS subcontractor must also be a supplier (else 400); without cisDetails it gets an empty SoleTrader identity, and it always starts NotVerified. A supplier without supplierSettings gets the VAT rate Standard when vatRegistered, else NoVat. ${events}`
      )
  )
  .add(
    HttpApiEndpoint.get("getContact")`/tenants/${tenantParam}/contacts/${codeParam}`
      .addSuccess(ContactDto)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "One contact, by its code in any case")
      .annotate(
        OpenApi.Description,
        "Codes are matched without regard to case; 404 for a code the tenant does not have."
      )
  )
  .add(
    HttpApiEndpoint.put("updateContact")`/tenants/${tenantParam}/contacts/${codeParam}`
      .setPayload(UpdateContactRequest)
      .addSuccess(ContactDto)
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .addError(ConflictProblem)
      .annotate(OpenApi.Summary, "Replace a contact's editable members, roles included")
      .annotate(
        OpenApi.Description,
        "cisDetails is required while the contact is a CIS subcontractor, supplierSettings while it is a supplier (else 400). Removing the customer role while it has sales invoices, or the supplier role while it has purchase invoices, is 409 and changes nothing. Without the subcontractor role the CIS identity and verification stay on record (shown as null); with the role back, the verification returns as it was and the identity is the one sent. Records contact.updated, and subcontractor.created when the contact becomes a CIS subcontractor for the first time (not when the role returns)."
      )
  )
  .add(
    HttpApiEndpoint.del("deleteContact")`/tenants/${tenantParam}/contacts/${codeParam}`
      .addSuccess(HttpApiSchema.NoContent)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .addError(ConflictProblem)
      .annotate(OpenApi.Summary, "Delete a contact")
      .annotate(
        OpenApi.Description,
        "409 while the contact has sales or purchase invoices or a connection. Its code is never used again. Records contact.deleted with the contact as it was."
      )
  )
  .add(
    HttpApiEndpoint.post("verifyContact")`/tenants/${tenantParam}/contacts/${codeParam}/verification`
      .addSuccess(ContactDto, { status: 202 })
      .addError(ConflictProblem)
      .addError(ValidationProblem)
      .addError(RefusedProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Start a CIS subcontractor's verification with the tax authority")
      .annotate(
        OpenApi.Description,
        "Answers 202 with the contact, its verification NotVerified, source Hmrc and message Verification requested. The request is queued with the change and a worker of the server sends it to the tax authority; the answer replaces the verification (Verified with verificationNumber, taxTreatment and verifiedAt, or Error with the authority's message, a manual one included) and records contact.updated. A contact that is not a CIS subcontractor is 400; an identity not complete for its type is 400 naming each missing member (SoleTrader: firstName, lastName, utr or niNumber; Company: tradingName, utr or companyNumber; Partnership: tradingName and utr (the firm's), and its nominated partner's firstName, lastName and partnerUtr or niNumber, as HMRC verifies a partnership; Trust: tradingName, utr). Without the tenant's own UTR in its CIS details, 400 naming utr; the request is checked against HMRC's CISrequest schema before it is queued (400 naming the member it cannot take). Asking again while a request waits replaces it. Records contact.updated."
      )
  )
  .annotate(OpenApi.Title, "Contacts")
  .annotate(OpenApi.Description, "Customers, suppliers and CIS subcontractors of a tenant, each known by a code.")
  .pipe(forTenantMembers) {}
