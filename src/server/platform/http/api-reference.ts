import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { listApiRoutes } from '../../../contracts/api-routes.js';

/** Each route's example body, by `METHOD pattern`, from the route table. */
const EXAMPLE_BODIES = new Map(
  listApiRoutes().flatMap(({ route }) =>
    route.example?.body === undefined
      ? []
      : [[`${route.method} ${route.path}`, route.example.body]],
  ),
);

/**
 * The API reference's schemas, as fastify-type-provider-zod writes them from each route's Zod
 * schemas, with the route table's example body (src/contracts/api-routes.ts, `RouteExample`)
 * shown beside the body it fits.
 */
export const apiReferenceTransform: typeof jsonSchemaTransform = (input) => {
  const transformed = jsonSchemaTransform(input);
  const methods = [input.route.method].flat();
  const example = methods
    .map((method) => EXAMPLE_BODIES.get(`${method} ${input.url}`))
    .find((body) => body !== undefined);
  const body = (transformed.schema as { body?: object }).body;
  if (example === undefined || body === undefined) return transformed;
  return {
    ...transformed,
    schema: { ...transformed.schema, body: { ...body, examples: [example] } },
  };
};
