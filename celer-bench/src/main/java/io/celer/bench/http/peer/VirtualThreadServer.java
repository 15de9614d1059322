package io.celer.bench.http.peer;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import io.celer.bench.peer.server.PeerMain;
import io.celer.bench.peer.server.PeerOptions;
import io.celer.bench.peer.server.PeerServer;

/**
 * The thread-per-connection server with a JDK virtual thread per connection
 * ({@code Executors.newVirtualThreadPerTaskExecutor}): the paper's simplest style on today's JDK.
 *
 * <p>Needs JDK 21 or newer; the build targets 17, so the executor is found reflectively, and on an older JDK
 * {@link #start()} fails saying so. The harness runs this peer on a JDK 21+ (JDK 25 where installed).
 */
@Command(name = "virtual-thread-http", mixinStandardHelpOptions = true,
    description = "HTTP peer: blocking ServerSocket, one virtual thread per connection (JDK 21+).")
public final class VirtualThreadServer implements PeerServer
{
    @Mixin
    PeerOptions options = new PeerOptions();

    private final ThreadsProbe probe = new ThreadsProbe();
    private final ThreadPerConnectionServer.Acceptor acceptor = new ThreadPerConnectionServer.Acceptor();
    private ExecutorService threads;

    /**
     * Runs the peer.
     *
     * @param args {@code --port=P --cpu=N}; stdin takes {@code begin}, {@code stats}, {@code stop}.
     */
    public static void main(final String[] args)
    {
        PeerMain.run(new VirtualThreadServer(), args);
    }

    /**
     * Whether this JDK has virtual threads.
     *
     * @return true on JDK 21+.
     */
    public static boolean supported()
    {
        return Runtime.version().feature() >= 21;
    }

    @Override
    public Serving start() throws IOException
    {
        threads = newVirtualThreadPerTaskExecutor();
        return new Serving(acceptor.start(options, "VirtualThreads", probe, threads), probe);
    }

    @Override
    public void stop()
    {
        acceptor.stop();
        Stopping.shutDown(threads);
    }

    private static ExecutorService newVirtualThreadPerTaskExecutor()
    {
        if (!supported())
        {
            throw new UnsupportedOperationException("virtual threads need JDK 21 or newer; this is JDK " +
                Runtime.version() + ": run this peer with a newer java");
        }
        try
        {
            final MethodHandle factory = MethodHandles.publicLookup().findStatic(Executors.class,
                "newVirtualThreadPerTaskExecutor", MethodType.methodType(ExecutorService.class));
            return (ExecutorService)factory.invokeExact();
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException("cannot make a virtual thread executor on JDK " + Runtime.version(), ex);
        }
    }
}
