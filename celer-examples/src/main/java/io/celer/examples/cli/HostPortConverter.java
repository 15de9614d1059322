package io.celer.examples.cli;

import java.net.InetSocketAddress;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads {@code HOST:PORT} ({@code [::1]:PORT} for an IPv6 literal) into an unresolved address, which a
 * client resolves on each connect, so a peer may come up after the demo that names it.
 */
public final class HostPortConverter implements ITypeConverter<InetSocketAddress>
{
    /**
     * Reads one address.
     *
     * @throws TypeConversionException if it is not {@code HOST:PORT} with a port from 1 to 65535.
     */
    @Override
    public InetSocketAddress convert(final String value)
    {
        final int colon = value.lastIndexOf(':');
        String host = colon > 0 ? value.substring(0, colon).trim() : "";
        if (host.startsWith("[") && host.endsWith("]"))
        {
            host = host.substring(1, host.length() - 1);
        }
        final int port;
        try
        {
            port = colon > 0 ? Integer.parseInt(value.substring(colon + 1).trim()) : -1;
        }
        catch (final NumberFormatException ex)
        {
            throw new TypeConversionException("not HOST:PORT: '" + value + "'");
        }
        if (host.isEmpty() || port < 1 || port > 65535)
        {
            throw new TypeConversionException("not HOST:PORT with a port from 1 to 65535: '" + value + "'");
        }
        return InetSocketAddress.createUnresolved(host, port);
    }
}
