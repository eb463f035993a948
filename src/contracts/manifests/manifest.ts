import type { ApiRoute } from '../route-kit.js';

/**
 * What a module declares once, for the server, the web UI and the tests alike
 * (docs/decisions/0121-module-manifests.md): its routes, each with its schemas and an example
 * request, grouped as the route table names them (`apiRoutes.trustees.create`), and the words its
 * audit records are read in. The route table (src/contracts/api-routes.ts), the audit log's words
 * (src/contracts/audit-text.ts), the API reference and the suites that try every route read them
 * from here, through the one list of modules in src/contracts/manifests/index.ts.
 */
export interface ModuleManifest {
  /** The module's name, as its folder under src/server/modules is named where it has one. */
  readonly name: string;
  readonly routes: Readonly<Record<string, Readonly<Record<string, ApiRoute>>>>;
  readonly audit?: {
    /** What each kind of record it writes is called: `noun` inside a sentence, `label` on its own. */
    readonly records?: Readonly<Record<string, { readonly noun: string; readonly label: string }>>;
    /**
     * Each action it records (`<entity>.<verb>`, docs/api.md, "The audit log"), in words: the only actions the
     * audit service accepts (src/server/platform/audit/audit-log.ts).
     */
    readonly actions?: Readonly<Record<string, string>>;
    /**
     * Actions it recorded once and records no more, in words, so that the records already written
     * still read as sentences (docs/decisions/0130-what-reads-are-audited.md). Never recorded again.
     */
    readonly retired?: Readonly<Record<string, string>>;
  };
}

/** A manifest, its routes' types kept exact for the typed client of the web UI. */
export function defineManifest<const M extends ModuleManifest>(manifest: M): M {
  return manifest;
}
