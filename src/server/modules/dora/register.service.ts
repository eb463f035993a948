import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import {
  PLATFORM_VENDOR_ROLES,
  REGISTER_TEMPLATE_CODES,
  type RegisterEntitiesView,
  registerFileName,
} from '../../../contracts/dora-register.js';
import { doraScope } from '../../../contracts/dora-rules.js';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import type { RacKind, SchemeType } from '../../../contracts/organisation.js';
import type { Config } from '../../platform/config/config.js';
import type { Database } from '../../platform/db/database.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize } from '../../platform/tenancy/authorize.js';
import { firmOf, providersOf, schemesWithMembers } from './register.data.js';
import { type CompleteParty, missingOf, registerRows, templateCsv } from './register.rules.js';

export interface RegisterServiceDeps {
  database: Database;
  now: () => Date;
  ictSupplyChain: Config['dora'];
}

export interface RegisterExport {
  filename: string;
  stream: Readable;
}

/**
 * The firm's register of information under DORA Art. 28(3), in the templates of ITS (EU)
 * 2024/2956 (docs/decisions/0139-dora-ict-incidents.md, "The register of information"): one CSV
 * a template in one ZIP, made from the firm's schemes within DORA, the platform's operator and
 * vendors as configured, and the firm's register of other ICT providers.
 */
export function createRegisterService({ database, now, ictSupplyChain }: RegisterServiceDeps) {
  /**
   * The operator and the vendors in use, each whole, or a 409 naming every setting missing: a
   * register without the platform's LEI would name the firm's direct provider wrongly.
   */
  function supplyChain() {
    const { operator } = ictSupplyChain;
    const used = ictSupplyChain.vendors.filter((vendor) => vendor.inUse);
    const missing = [operator, ...used.map((vendor) => vendor.party)].flatMap(missingOf);
    if (missing.length > 0) {
      const who = [
        ...(missingOf(operator).length > 0 ? ['the platform’s operator'] : []),
        ...used
          .filter((vendor) => missingOf(vendor.party).length > 0)
          .map((vendor) => PLATFORM_VENDOR_ROLES[vendor.role].label.toLowerCase()),
      ];
      throw new ConflictError(
        `The register of information cannot be made until the platform names ${who.join(', ')} ` +
          `with legal name, LEI and country: the settings ${missing.join(', ')} are not set. ` +
          'Ask the platform’s operator to set them.',
      );
    }
    return {
      operator: operator as CompleteParty,
      vendors: used.map((vendor) => ({ role: vendor.role, party: vendor.party as CompleteParty })),
    };
  }

  /** The firm and its live, running schemes within DORA: the entities the register names. */
  async function entitiesIn(tx: Transaction, brokerId: string) {
    const firm = await firmOf(tx, brokerId);
    if (!firm) throw new NotFoundError();
    const schemes = (await schemesWithMembers(tx, brokerId)).filter(
      (scheme) =>
        doraScope(
          { type: scheme.type as SchemeType, racKind: scheme.racKind as RacKind | null },
          Number(scheme.members),
        ).applies,
    );
    return { firm, schemes };
  }

  return {
    /**
     * The entities the register names, each with its LEI or null: what the register's page
     * shows before the download, so that a missing LEI is given first.
     */
    async entities(actor: ActorContext): Promise<RegisterEntitiesView> {
      const reader = authorize(actor, 'ict_register.export');
      const { firm, schemes } = await withActor(database, reader, (tx) =>
        entitiesIn(tx, reader.tenantId),
      );
      return {
        firm: { id: firm.id, name: firm.name, lei: firm.lei },
        schemes: schemes.map((scheme) => ({ id: scheme.id, name: scheme.name, lei: scheme.lei })),
      };
    },

    async export(actor: ActorContext): Promise<RegisterExport> {
      const reader = authorize(actor, 'ict_register.export');
      const chain = supplyChain();
      const at = now();
      const today = todayInIreland(at);
      const facts = await withActor(database, reader, async (tx) => ({
        ...(await entitiesIn(tx, reader.tenantId)),
        providers: await providersOf(tx, reader.tenantId),
      }));
      const rows = registerRows({
        today,
        firm: {
          id: facts.firm.id,
          name: facts.firm.name,
          lei: facts.firm.lei,
          joinedOn: todayInIreland(facts.firm.createdAt),
        },
        schemes: facts.schemes.map((scheme) => ({
          name: scheme.name,
          lei: scheme.lei,
          addedOn: todayInIreland(scheme.createdAt),
          updatedOn: todayInIreland(scheme.updatedAt),
        })),
        ...chain,
        providers: facts.providers,
      });
      const zip = new ZipFile();
      for (const template of REGISTER_TEMPLATE_CODES) {
        zip.addBuffer(
          Buffer.from(templateCsv(template, rows[template]), 'utf8'),
          registerFileName(template),
          { mtime: at },
        );
      }
      zip.end();
      // yazl's output is a PassThrough; its published types name only the readable interface.
      return {
        filename: `register-of-information-${today}.zip`,
        stream: zip.outputStream as Readable,
      };
    },
  };
}

export type RegisterService = ReturnType<typeof createRegisterService>;
