package io.celer.tls;

/**
 * Whether a TLS server asks its clients for a certificate.
 */
public enum ClientAuth
{
    /** It does not ask. */
    NONE,
    /** It asks; a client without one is still accepted. */
    OPTIONAL,
    /** It asks, and refuses a client without a trusted one. */
    REQUIRED
}
