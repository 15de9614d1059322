package io.celer.udp;

import static io.celer.reactor.internal.ConfigChecks.positive;

import java.net.NetworkInterface;

/**
 * Settings of a UDP endpoint; fluent, read when it opens.
 */
public final class UdpConfig
{
    private String bindAddress = "0.0.0.0";
    private int maxDatagramSize = 65_507;
    private int writeBufferSize = 65_507;
    private int socketReceiveBufferSize = 4 * 1024 * 1024;
    private int socketSendBufferSize = 4 * 1024 * 1024;
    private boolean reuseAddress = false;
    private boolean reusePort = false;
    private NetworkInterface multicastInterface;
    private int multicastTtl = 1;
    private boolean multicastLoopback = true;
    private boolean busyPoll = false;

    /**
     * Settings with every default, to be changed by the methods below.
     */
    public UdpConfig()
    {
    }

    /**
     * Local address to bind; {@code 0.0.0.0} by default. A multicast receiver binds the wildcard address.
     *
     * @param address a host name or IP literal.
     * @return this.
     */
    public UdpConfig bindAddress(final String address)
    {
        this.bindAddress = address;
        return this;
    }

    /**
     * The largest datagram taken; larger ones are dropped and reported. 65,507 bytes (the IPv4 maximum)
     * by default.
     *
     * @param bytes the bound.
     * @return this.
     */
    public UdpConfig maxDatagramSize(final int bytes)
    {
        this.maxDatagramSize = positive(bytes, "maxDatagramSize");
        return this;
    }

    /**
     * Size of the buffer that {@link UdpEndpoint#send(CharSequence, java.net.InetSocketAddress)} and the
     * array sends copy into; 65,507 bytes by default.
     *
     * @param bytes the size.
     * @return this.
     */
    public UdpConfig writeBufferSize(final int bytes)
    {
        this.writeBufferSize = positive(bytes, "writeBufferSize");
        return this;
    }

    /**
     * SO_RCVBUF to ask for; 4 MiB by default, 0 for the kernel's default.
     *
     * @param bytes the size.
     * @return this.
     */
    public UdpConfig socketReceiveBufferSize(final int bytes)
    {
        this.socketReceiveBufferSize = bytes;
        return this;
    }

    /**
     * SO_SNDBUF to ask for; 4 MiB by default, 0 for the kernel's default.
     *
     * @param bytes the size.
     * @return this.
     */
    public UdpConfig socketSendBufferSize(final int bytes)
    {
        this.socketSendBufferSize = bytes;
        return this;
    }

    /**
     * SO_REUSEADDR, so several receivers can bind one multicast port; off by default.
     *
     * @param on the option.
     * @return this.
     */
    public UdpConfig reuseAddress(final boolean on)
    {
        this.reuseAddress = on;
        return this;
    }

    /**
     * SO_REUSEPORT, so that an endpoint on each reactor of a group binds the same port and the kernel spreads
     * the senders over them by a hash of their addresses; off by default. Where the platform lacks the option,
     * {@link UdpEndpoint#open()} fails.
     *
     * @param on the option.
     * @return this.
     */
    public UdpConfig reusePort(final boolean on)
    {
        this.reusePort = on;
        return this;
    }

    /**
     * The interface multicast datagrams leave by, and groups are joined on; the system's choice by default.
     *
     * @param networkInterface the interface.
     * @return this.
     */
    public UdpConfig multicastInterface(final NetworkInterface networkInterface)
    {
        this.multicastInterface = networkInterface;
        return this;
    }

    /**
     * Time-to-live of multicast datagrams sent; 1 (this subnet) by default.
     *
     * @param ttl hops, 0 to 255.
     * @return this.
     */
    public UdpConfig multicastTtl(final int ttl)
    {
        if (ttl < 0 || ttl > 255)
        {
            throw new IllegalArgumentException("multicast TTL must be 0 to 255: " + ttl);
        }
        this.multicastTtl = ttl;
        return this;
    }

    /**
     * Whether multicast datagrams sent are looped back to receivers on this host; on by default.
     *
     * @param on the option.
     * @return this.
     */
    public UdpConfig multicastLoopback(final boolean on)
    {
        this.multicastLoopback = on;
        return this;
    }

    /**
     * Whether the endpoint is read every reactor cycle instead of when the selector reports it readable; off
     * by default. Saves a select per datagram at the price of a receive system call per cycle. See
     * {@link io.celer.reactor.ReactorConfig#selectInterval(int)}.
     *
     * @param on the option.
     * @return this.
     */
    public UdpConfig busyPoll(final boolean on)
    {
        this.busyPoll = on;
        return this;
    }

    boolean busyPoll()
    {
        return busyPoll;
    }

    String bindAddress()
    {
        return bindAddress;
    }

    int maxDatagramSize()
    {
        return maxDatagramSize;
    }

    int writeBufferSize()
    {
        return writeBufferSize;
    }

    int socketReceiveBufferSize()
    {
        return socketReceiveBufferSize;
    }

    int socketSendBufferSize()
    {
        return socketSendBufferSize;
    }

    boolean reuseAddress()
    {
        return reuseAddress;
    }

    boolean reusePort()
    {
        return reusePort;
    }

    NetworkInterface multicastInterface()
    {
        return multicastInterface;
    }

    int multicastTtl()
    {
        return multicastTtl;
    }

    boolean multicastLoopback()
    {
        return multicastLoopback;
    }
}
