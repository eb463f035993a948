/** The members module's public face: all that other modules and the composition root may import from it. */
export { findMember, findMemberForChange, liveMemberOf } from './members.data.js';
export { createMembersModule } from './members.module.js';
export { type MemberExport, memberExport, memberParams } from './members.schemas.js';
export type { MembersService } from './members.service.js';
export { viewOf } from './members.service.js';
export { DEFAULT_BATCH_SIZE, ppsRotateCommand } from './pps-rotation.service.js';
