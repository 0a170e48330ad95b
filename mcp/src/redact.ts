/** Token scrubbing of the server's messages (its bin's stderr); tool results are scrubbed in server.ts by the same rule. */
import { MIN_SECRET_LENGTH } from '@connector-sdk/runtime';

/**
 * `text` with every occurrence of the token replaced; a token shorter than the runtime's MIN_SECRET_LENGTH (a test
 * token such as `test`: no service issues one) is left alone, as the clients leave it, or every word holding it
 * would be cut ("la[REDACTED]-server").
 */
export function redactToken(text: string, token: string | undefined): string {
  return token && token.length >= MIN_SECRET_LENGTH ? text.split(token).join('[REDACTED]') : text;
}
