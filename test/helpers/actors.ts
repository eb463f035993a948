import { createId } from '@paralleldrive/cuid2';
import type { PlatformActor, TenantActor } from '../../src/server/platform/tenancy/actor.js';
import type { Role } from '../../src/server/platform/tenancy/roles.js';

const requestContext = {
  ipAddress: '203.0.113.7',
  userAgent: 'vitest',
  clientAddress: '192.0.2.10',
};

export function tenantActor(
  tenantId: string,
  role: Exclude<Role, 'SuperAdmin'> = 'BrokerAdmin',
  employerId: string | null = null,
  memberId: string | null = null,
): TenantActor {
  return {
    userId: createId(),
    email: 'someone@broker.example',
    role,
    tenantId,
    employerId,
    memberId,
    ...requestContext,
  };
}

export function platformActor(): PlatformActor {
  return {
    userId: createId(),
    email: 'platform@operator.example',
    role: 'SuperAdmin',
    tenantId: null,
    employerId: null,
    ...requestContext,
  };
}
