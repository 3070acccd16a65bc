/** The reseller machine's guards, and the form checks they share with the actions that show the form's errors. */
import { isValidEmail } from '../src/domain/email';
import type { MessageKey } from '../src/domain/messages';
import { newPasswordProblem, type PasswordProblem } from '../src/domain/password';
import type { ResellerContext, ResellerService, ResellerSuccessQuery } from './reseller.context';

/** The e-mail's message while it is typed: none for an empty or well-formed one. */
export function emailError(email: string): MessageKey | null {
  return email === '' || isValidEmail(email) ? null : 'email.invalid';
}

const PASSWORD_PROBLEM_MESSAGES: Record<PasswordProblem, MessageKey> = { tooShort: 'reseller.passwordTooShort', isEmail: 'reseller.passwordIsEmail' };

/** What a new reseller's password breaks of the rule; a sign-in takes the account's password as it is. */
export function passwordRuleError(context: Pick<ResellerContext, 'existingReseller' | 'password' | 'email'>): MessageKey | null {
  const problem = context.existingReseller ? null : newPasswordProblem(context.password, context.email);
  return problem ? PASSWORD_PROBLEM_MESSAGES[problem] : null;
}

/** A new reseller's confirmation, once typed, that differs from the password. */
export function passwordError(context: Pick<ResellerContext, 'existingReseller' | 'password' | 'confirmPassword'>): MessageKey | null {
  const mismatch = !context.existingReseller && context.confirmPassword !== '' && context.password !== context.confirmPassword;
  return mismatch ? 'reseller.passwordMismatch' : null;
}

/** The reseller success page may be shown: the query has a service id and the user is logged in. */
export function canEnterResellerSuccess(query: ResellerSuccessQuery): boolean {
  return query.loggedIn && typeof query.serviceid === 'number' && Number.isInteger(query.serviceid) && query.serviceid > 0;
}

/** The reseller service found is Active (otherwise the route redirects to the reseller page). */
export function isActiveResellerService(service: Pick<ResellerService, 'status'>): boolean {
  return service.status === 'Active';
}

interface GuardArgs {
  context: ResellerContext;
}

const gatewayListed = (context: ResellerContext) => context.gateways.some((gateway) => gateway.module === context.selectedGateway);

/** The guards of the reseller machine, exported for their unit tests and the success route. */
export const resellerGuards = {
  hasProducts: (_: unknown, params: { count: number }) => params.count > 0,
  isResellerProduct: ({ context }: GuardArgs, params: { pid: number }) => context.products.some((product) => product.pid === params.pid),
  isKnownGateway: ({ context }: GuardArgs, params: { gateway: string }) => context.gateways.some((gateway) => gateway.module === params.gateway),
  canOrderSignedIn: ({ context }: GuardArgs) => context.userid !== null && context.price !== null && gatewayListed(context),
  formComplete: ({ context }: GuardArgs) =>
    isValidEmail(context.email) &&
    context.password !== '' &&
    passwordRuleError(context) === null &&
    (context.existingReseller || context.password === context.confirmPassword) &&
    context.price !== null &&
    gatewayListed(context),
  hasPaymentLink: (_: unknown, params: { link: string | null }) => typeof params.link === 'string' && params.link !== '',
  canEnterResellerSuccess: (_: unknown, params: ResellerSuccessQuery) => canEnterResellerSuccess(params),
  isActiveResellerService: (_: unknown, params: Pick<ResellerService, 'status'>) => isActiveResellerService(params),
};
