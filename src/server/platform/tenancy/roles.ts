/** The roles live in shared code, where the web UI reads them too. */
export { isRole, ROLES, type Role } from '../../../contracts/roles.js';
