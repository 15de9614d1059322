package io.celer.bench.http.peer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import io.celer.bench.peer.server.PeerMain;
import io.celer.bench.peer.server.PeerOptions;
import io.celer.bench.peer.server.PeerServer;
import io.celer.bench.peer.server.PinnedThreads;

/**
 * The 2009 paper's NIO server, by hand: one selector thread accepts and reads; once a connection holds a whole
 * request it stops reading it and hands it to a fixed pool, whose thread writes the answer and gives the
 * connection back to the selector (or closes it). {@code --cpu} pins the selector thread.
 */
@Command(name = "nio-pool-http", mixinStandardHelpOptions = true,
    description = "HTTP peer: a java.nio selector thread handing requests to a fixed thread pool.")
public final class NioPoolServer implements PeerServer
{
    private static final int IN_CAPACITY = 8192;

    @Mixin
    PeerOptions options = new PeerOptions();

    @Option(names = "--threads", defaultValue = "4", description = "Threads of the pool that answers.")
    int poolSize;

    private final ThreadsProbe probe = new ThreadsProbe();
    private final Queue<Connection> resumed = new ConcurrentLinkedQueue<>();
    private final RawResponses responses = new RawResponses("NioPool");
    private ExecutorService pool;
    private Selector selector;
    private ServerSocketChannel listener;
    private Thread thread;
    private volatile boolean running = true;

    /**
     * Runs the peer.
     *
     * @param args {@code --port=P --cpu=N --threads=T}; stdin takes {@code begin}, {@code stats}, {@code stop}.
     */
    public static void main(final String[] args)
    {
        PeerMain.run(new NioPoolServer(), args);
    }

    @Override
    public Serving start() throws IOException
    {
        pool = Executors.newFixedThreadPool(poolSize, task -> new Thread(task, "http-worker"));
        selector = Selector.open();
        listener = ServerSocketChannel.open();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), options.port()), 1024);
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT);
        thread = new Thread(this::select, "http-selector");
        thread.start();
        return new Serving(listener.socket().getLocalPort(), probe);
    }

    @Override
    public void stop()
    {
        running = false;
        selector.wakeup();
        Stopping.join(thread);
        Stopping.shutDown(pool);
    }

    private void select()
    {
        PinnedThreads.pin(options.cpu());
        try
        {
            while (running)
            {
                selector.select();
                Connection back;
                while ((back = resumed.poll()) != null)
                {
                    back.key.interestOps(SelectionKey.OP_READ);
                }
                final Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext())
                {
                    final SelectionKey key = keys.next();
                    keys.remove();
                    if (!key.isValid())
                    {
                        continue;
                    }
                    if (key.isAcceptable())
                    {
                        accept();
                    }
                    else if (key.isReadable())
                    {
                        read((Connection)key.attachment());
                    }
                }
            }
            for (final SelectionKey key : selector.keys())
            {
                key.channel().close();
            }
            selector.close();
        }
        catch (final IOException ex)
        {
            System.err.println("selector failed: " + ex);
        }
    }

    private void accept() throws IOException
    {
        SocketChannel channel;
        while ((channel = listener.accept()) != null)
        {
            channel.configureBlocking(false);
            channel.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
            final Connection connection = new Connection(channel);
            connection.key = channel.register(selector, SelectionKey.OP_READ, connection);
        }
    }

    private void read(final Connection connection)
    {
        final ByteBuffer in = connection.in;
        try
        {
            final int read = connection.channel.read(in);
            if (read < 0 || (read == 0 && !in.hasRemaining()))
            {
                // The client left, or a request head outgrew the buffer.
                connection.close();
                return;
            }
        }
        catch (final IOException ex)
        {
            connection.close();
            return;
        }
        if (connection.scanner.scan(in.array(), connection.start, in.position()) >= 0)
        {
            // The pool owns the connection until it hands it back: the selector stops reading it meanwhile.
            connection.key.interestOps(0);
            pool.execute(connection);
        }
    }

    /**
     * A connection and its buffers; run on the pool to answer what it holds.
     */
    private final class Connection implements Runnable
    {
        final SocketChannel channel;
        final ByteBuffer in = ByteBuffer.allocate(IN_CAPACITY);
        final RequestScanner scanner = new RequestScanner();
        SelectionKey key;
        int start;

        Connection(final SocketChannel channel)
        {
            this.channel = channel;
        }

        @Override
        public void run()
        {
            final byte[] received = in.array();
            final byte[] reply = Replies.get();
            int replyEnd = 0;
            boolean open = true;
            int next;
            try
            {
                while (open && (next = scanner.scan(received, start, in.position())) >= 0)
                {
                    if (replyEnd > reply.length - RawResponses.MAX_LENGTH)
                    {
                        writeFully(reply, replyEnd);
                        replyEnd = 0;
                    }
                    replyEnd = responses.write(scanner, reply, replyEnd);
                    probe.served();
                    open = RawResponses.keepsOpen(scanner);
                    start = next;
                }
                writeFully(reply, replyEnd);
            }
            catch (final IOException ex)
            {
                open = false;
            }
            if (!open)
            {
                close();
                return;
            }
            compact();
            resumed.add(this);
            selector.wakeup();
        }

        private void compact()
        {
            final int end = in.position();
            if (start > 0)
            {
                System.arraycopy(in.array(), start, in.array(), 0, end - start);
                in.position(end - start);
                start = 0;
            }
        }

        private void writeFully(final byte[] reply, final int length) throws IOException
        {
            final ByteBuffer out = ByteBuffer.wrap(reply, 0, length);
            while (out.hasRemaining())
            {
                if (channel.write(out) == 0)
                {
                    // A full socket buffer: rare on loopback for pages this small, so wait here, not in the selector.
                    Thread.yield();
                }
            }
        }

        void close()
        {
            try
            {
                channel.close();
            }
            catch (final IOException ex)
            {
                // Closing anyway.
            }
        }
    }

    /**
     * Each pool thread's reply buffer.
     */
    private static final class Replies
    {
        private static final ThreadLocal<byte[]> BUFFERS =
            ThreadLocal.withInitial(() -> new byte[4 * RawResponses.MAX_LENGTH]);

        static byte[] get()
        {
            return BUFFERS.get();
        }
    }
}
