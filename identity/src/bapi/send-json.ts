import type { FastifyReply } from 'fastify';

/**
 * @clerk/backend parses a body only when Content-Type is exactly `application/json` (no charset),
 * so every Backend API answer goes out through here.
 */
export function sendJson(reply: FastifyReply, status: number, body: unknown) {
  return reply
    .code(status)
    .header('content-type', 'application/json')
    .send(Buffer.from(JSON.stringify(body)));
}
