/**
 * A project environment's key pair for verified location tokens (ES256), as JWKs. The private half
 * stays in the store; the public half is published in the environment's JWKS so the app's own back end
 * can check tokens without calling the server.
 */
export interface SigningKey {
  /** The key id: the JWS header's `kid` and the JWKS entry's. */
  kid: string;
  privateJwk: Record<string, unknown>;
  publicJwk: Record<string, unknown>;
  /** Epoch ms. */
  createdAt: number;
}
