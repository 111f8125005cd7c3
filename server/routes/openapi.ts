/**
 * GET /openapi.json: the API's OpenAPI 3.1 document, generated from the contract and the routes
 * this server registered (server/openapi.ts). GET /docs: an interactive reference of it
 * (swagger-ui-dist, served from the package itself: no network, no CDN). Both are extensions,
 * absent in strict mode.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { buildOpenApi } from '../openapi';
import { notFound } from '../errors';

const require = createRequire(import.meta.url);

/** The files of the reference page, by the name the page asks for. */
const DOCS_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Marketplace API reference</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/start.js"></script>
</body>
</html>
`;

/** Starts the page on the document (a file of its own: the page runs no inline script). */
const START = `window.ui = SwaggerUIBundle({ url: 'openapi.json', dom_id: '#docs', deepLinking: true, presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout' });\n`;

const PAGE_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'";

/** The app's document, built once when first asked for (every route is registered by then). */
export function apiDocumentOf(ctx: AppContext): () => Record<string, unknown> {
  let document: Record<string, unknown> | undefined;
  return () => {
    const version = (require('../../package.json') as { version: string }).version;
    return (document ??= buildOpenApi(ctx.registry, ctx.routes.map((r) => ({ ...r, url: r.url.replace(/^\/api/, '') })), ctx.services, version));
  };
}

export async function openApiRoutes(app: FastifyInstance, ctx: AppContext) {
  if (ctx.config.strict) return;
  const root = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const document = apiDocumentOf(ctx);

  app.get('/openapi.json', async (_request, reply) => reply.header('Cache-Control', 'no-cache').send(document()));

  app.get('/docs', async (_request, reply) =>
    reply.header('Content-Security-Policy', PAGE_POLICY).header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(PAGE),
  );

  app.get<{ Params: { file: string } }>('/docs/:file', async (request, reply) => {
    const { file } = request.params;
    reply.header('Cache-Control', 'public, max-age=86400');
    if (file === 'start.js') return reply.type('text/javascript; charset=utf-8').send(START);
    const type = DOCS_FILES[file];
    if (!type) throw notFound(`There is no file ${file.slice(0, 64)} in the API reference`);
    return reply.type(type).send(fs.createReadStream(path.join(root, file)));
  });
}
