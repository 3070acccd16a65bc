/** One leading slash, then only letters, digits and @ - % _ ~ / (spec section 5). */
const IN_APP_PATH = /^\/(?!\/)[A-Za-z0-9@\-%_~/]*$/;

/** True when a redirect target is an in-app path that auth may save; anything else is ignored. */
export function isSafeRedirectTarget(target: string | null | undefined): target is string {
  return typeof target === 'string' && IN_APP_PATH.test(target);
}
