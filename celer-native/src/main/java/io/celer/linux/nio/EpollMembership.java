package io.celer.linux.nio;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.channels.MembershipKey;
import java.nio.channels.MulticastChannel;

/**
 * A multicast group an epoll datagram channel joined on an interface, for any source; valid until dropped or
 * until its channel closes.
 */
final class EpollMembership extends MembershipKey
{
    private final EpollDatagramChannel channel;
    private final InetAddress group;
    private final NetworkInterface networkInterface;
    private volatile boolean valid = true;

    EpollMembership(final EpollDatagramChannel channel, final InetAddress group,
        final NetworkInterface networkInterface)
    {
        this.channel = channel;
        this.group = group;
        this.networkInterface = networkInterface;
    }

    @Override
    public boolean isValid()
    {
        return valid;
    }

    @Override
    public void drop()
    {
        if (valid)
        {
            valid = false;
            channel.dropped(this);
        }
    }

    /** Its channel closed, which left every group. */
    void invalidate()
    {
        valid = false;
    }

    @Override
    public MembershipKey block(final InetAddress source) throws IOException
    {
        throw new UnsupportedOperationException("blocking a source is not on Celer's epoll transport");
    }

    @Override
    public MembershipKey unblock(final InetAddress source)
    {
        throw new UnsupportedOperationException("blocking a source is not on Celer's epoll transport");
    }

    @Override
    public MulticastChannel channel()
    {
        return channel;
    }

    @Override
    public InetAddress group()
    {
        return group;
    }

    @Override
    public NetworkInterface networkInterface()
    {
        return networkInterface;
    }

    @Override
    public InetAddress sourceAddress()
    {
        return null;
    }

    @Override
    public String toString()
    {
        return "EpollMembership[" + group.getHostAddress() + " on " + networkInterface.getName() +
            (valid ? "" : ", dropped") + "]";
    }
}
