/**
 * Offline stand-in for the IP geolocation service (SPEC §7.10, DESIGN D10): `GET /geo/{key}/detect`
 * answers the visitor location of SPEC §3.22. Knowing no addresses, it answers the default location
 * (Liberia, USD) with the caller's address, so the console works with no internet access.
 */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_LOCATION } from '../../contract/location';

export async function geoRoutes(app: FastifyInstance) {
  app.get<{ Params: { key: string } }>('/:key/detect', async (request, reply) => {
    if (!/^[\w-]{1,128}$/.test(request.params.key)) return reply.code(400).send({ success: false, error: 'Invalid key' });
    return { ...DEFAULT_LOCATION, connection: { ip: request.ip, ip_version: request.ip.includes(':') ? 6 : 4 } };
  });
}
