package io.celer.reactor;

import java.nio.channels.spi.SelectorProvider;
import java.util.Objects;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import io.celer.reactor.internal.ConfigChecks;
import io.celer.reactor.internal.Poller;

/**
 * Settings of a {@link Reactor}; fluent, read once when the reactor is built.
 */
public final class ReactorConfig
{
    private String name = "celer-reactor";
    private IdleStrategy idleStrategy = new BusySpinIdleStrategy();
    private int cpu = -1;
    private int callbackQueueCapacity = 4096;
    private boolean daemon = false;
    private boolean checkThreads = Boolean.getBoolean("celer.checkThreads");
    private int selectInterval = 64;
    private boolean waitInSelector = false;
    private long maxLargeBufferBytes = defaultMaxLargeBufferBytes();
    private long stallThresholdNanos = 1_000_000L;
    private SelectorProvider selectorProvider = DefaultTransport.PROVIDER;

    /**
     * Settings with every default, to be changed by the methods below.
     */
    public ReactorConfig()
    {
    }

    /**
     * Name of the reactor thread.
     *
     * @param name the thread name.
     * @return this.
     */
    public ReactorConfig name(final String name)
    {
        this.name = Objects.requireNonNull(name, "name must not be null");
        return this;
    }

    /**
     * What the reactor does on a cycle that found no work; busy spin by default.
     *
     * <p>Sleeping strategies that park ({@code BackoffIdleStrategy}, {@code SleepingIdleStrategy}) are woken
     * by {@link Reactor#wakeup()}; others wait out their sleep.
     *
     * @param idleStrategy an Agrona idle strategy, used by the reactor thread only.
     * @return this.
     */
    public ReactorConfig idleStrategy(final IdleStrategy idleStrategy)
    {
        this.idleStrategy = Objects.requireNonNull(idleStrategy, "idleStrategy must not be null");
        return this;
    }

    /**
     * CPU to pin the reactor thread to, or -1 (the default) to leave it to the scheduler.
     *
     * @param cpu the CPU number.
     * @return this.
     */
    public ReactorConfig cpu(final int cpu)
    {
        this.cpu = cpu;
        return this;
    }

    /**
     * Capacity of the queue that {@link Reactor#callAsync(Runnable)} offers to; rounded up to a power of two.
     *
     * @param capacity slots, at least 2.
     * @return this.
     */
    public ReactorConfig callbackQueueCapacity(final int capacity)
    {
        this.callbackQueueCapacity = ConfigChecks.atLeast(capacity, 2, "callbackQueueCapacity");
        return this;
    }

    /**
     * Whether the reactor thread is a daemon thread; false by default.
     *
     * @param daemon true to let the JVM exit while the reactor runs.
     * @return this.
     */
    public ReactorConfig daemon(final boolean daemon)
    {
        this.daemon = daemon;
        return this;
    }

    /**
     * Whether connection, timer and server methods fail loudly when called off the reactor thread; off by
     * default, or as set by {@code -Dceler.checkThreads=true}. For debugging: it costs a check per call.
     *
     * @param on the option.
     * @return this.
     */
    public ReactorConfig checkThreads(final boolean on)
    {
        this.checkThreads = on;
        return this;
    }

    /**
     * While the reactor busy-polls channels (see {@link Poller}), how many cycles pass between two selects of
     * the other channels; 64 by default. Selecting costs about as much as a read, so a busy-polled channel
     * answers sooner when the selector runs rarely; the others (accepts, connects, writable sockets, channels
     * not polled) wait that many cycles longer. Without pollers the reactor selects every cycle.
     *
     * @param cycles 1 or more.
     * @return this.
     */
    public ReactorConfig selectInterval(final int cycles)
    {
        if (cycles < 1)
        {
            throw new IllegalArgumentException("select interval must be at least 1 cycle: " + cycles);
        }
        this.selectInterval = cycles;
        return this;
    }

    /**
     * Whether a cycle that found no work waits in the selector ({@code epoll_wait} on Linux) until a channel is
     * ready, a timer is due or another thread hands the reactor work, as Netty's and Vert.x's event loops do;
     * off by default. It then uses no CPU while idle, at the cost of a system call and a thread wake-up (some
     * microseconds) for the first event after a wait; the {@link #idleStrategy} is not used. A reactor with
     * busy-polled channels does not wait: it polls them every cycle.
     *
     * @param on the option.
     * @return this.
     */
    public ReactorConfig waitInSelector(final boolean on)
    {
        this.waitInSelector = on;
        return this;
    }

    /**
     * The bytes of large per-message buffers the reactor's connections may hold at once: WebSocket messages
     * gathered beyond {@code WebSocketConfig.initialMessageBufferSize}. Beyond it a new large message is refused
     * (WebSocket close 1009) instead of the process running out of heap. By default 64 MiB, or an eighth of the
     * maximum heap when that is less.
     *
     * @param bytes the bound, at least 1.
     * @return this.
     */
    public ReactorConfig maxLargeBufferBytes(final long bytes)
    {
        if (bytes < 1)
        {
            throw new IllegalArgumentException("maxLargeBufferBytes must be at least 1: " + bytes);
        }
        this.maxLargeBufferBytes = bytes;
        return this;
    }

    private static long defaultMaxLargeBufferBytes()
    {
        return Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 8);
    }

    long maxLargeBufferBytes()
    {
        return maxLargeBufferBytes;
    }

    boolean waitInSelector()
    {
        return waitInSelector;
    }

    int selectInterval()
    {
        return selectInterval;
    }

    boolean checkThreads()
    {
        return checkThreads;
    }

    /**
     * How long a cycle that did work may take before it counts as a stall ({@code reactor.stalls} in the
     * counters, and the slowest handler, timer or callback in it named); 1 ms by default.
     *
     * @param nanos the threshold in nanoseconds, at least 1,000.
     * @return this.
     */
    public ReactorConfig stallThresholdNanos(final long nanos)
    {
        this.stallThresholdNanos = ConfigChecks.atLeast(nanos, 1_000L, "stallThresholdNanos");
        return this;
    }

    long stallThresholdNanos()
    {
        return stallThresholdNanos;
    }

    String name()
    {
        return name;
    }

    IdleStrategy idleStrategy()
    {
        return idleStrategy;
    }

    int cpu()
    {
        return cpu;
    }

    int callbackQueueCapacity()
    {
        return callbackQueueCapacity;
    }

    boolean daemon()
    {
        return daemon;
    }

    /**
     * Where the reactor's selector and the TCP channels registered with it come from: the JDK's provider by
     * default, or the native transport's with {@code -Dceler.transport=epoll} or {@code -Dceler.transport=uring}
     * ({@code celer-native} on the path, JDK 22 or later); the native transport's epoll or io_uring provider, given
     * here, leaves the JDK's NIO implementation behind while every layer above stays the same.
     *
     * @param provider the provider.
     * @return this.
     */
    public ReactorConfig selectorProvider(final SelectorProvider provider)
    {
        this.selectorProvider = Objects.requireNonNull(provider, "provider must not be null");
        return this;
    }

    SelectorProvider selectorProvider()
    {
        return selectorProvider;
    }
}
