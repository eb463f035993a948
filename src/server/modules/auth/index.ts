/** The auth module's public face: all that other modules and the composition root may import from it. */
export { createAccountThrottle } from './account-throttle.service.js';
export { authRoutes } from './auth.routes.js';
export { createAuthService } from './auth.service.js';
export { default as authGate, tokenClaims } from './auth-gate.plugin.js';
export { createChallengeTokens } from './challenge-tokens.service.js';
export { createInvitationsService } from './invitations.service.js';
export { createPasskeysService } from './passkeys.service.js';
export { createPasswordChangeService } from './password-change.service.js';
export { passwordResetRoutes } from './password-reset.routes.js';
export {
  createPasswordResetService,
  INVITATION_VALID_MS,
  issueToken,
  withdrawTokens,
} from './password-reset.service.js';
export {
  createDummyHash,
  type HashPassword,
  passwordHasher,
  passwordPolicyRefusal,
  passwordProblem,
} from './passwords.rules.js';
export {
  createSuperAdmin,
  ensureDevelopmentAccounts,
  SYSTEM_ACTOR,
} from './provisioning.service.js';
export { createTotpSecretBox, resealTotpSecrets } from './second-factor.data.js';
export { secondFactorRoutes } from './second-factor.routes.js';
export { createSecondFactorService, resetSuperAdminFactors } from './second-factor.service.js';
export { default as secondFactorGate, mustSetUpSecondFactor } from './second-factor-gate.plugin.js';
export { sessionCookieName } from './session-cookie.rules.js';
export { createSignIns } from './sign-ins.service.js';
export { findUserByEmail, findUserById, type UserRow } from './user-lookup.data.js';
