import type { Role } from './roles.js';

interface ActorBase {
  userId: string;
  email: string;
  ipAddress: string;
  userAgent: string;
}

/** A user who works inside one broker firm: everything they touch belongs to that tenant. */
export interface TenantActor extends ActorBase {
  role: Exclude<Role, 'SuperAdmin'>;
  tenantId: string;
  employerId: string | null;
}

/** Platform operations (service-spec §2.1): no tenant of its own, crosses tenants only on the audited platform path. */
export interface PlatformActor extends ActorBase {
  role: 'SuperAdmin';
  tenantId: null;
  employerId: null;
}

/** service-spec §2.11: built per request from the verified session only, and the first argument of every service call. */
export type ActorContext = TenantActor | PlatformActor;

export function isPlatformActor(actor: ActorContext): actor is PlatformActor {
  return actor.role === 'SuperAdmin';
}
