package io.celer.linux.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.celer.linux.UringCalls;
import io.celer.linux.uring.IoUring;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The io_uring selector driven directly, its channels against the JDK's blocking sockets on loopback: what only a
 * completion transport must get right. A paused connection's receive is cancelled and its bytes wait in the kernel;
 * a ring with fewer buffers than its connections want runs dry and recovers with every byte in order; staged bytes
 * go before a close or a shutdown; the end of the stream and a reset come after the bytes before them; a read
 * once the output is shut, or with no receive armed, sees what the kernel holds, as a lingering close needs.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class UringSelectorTest
{
    private final List<AutoCloseable> opened = new ArrayList<>();
    private UringSelector selector;
    private ServerSocketChannel listener;
    private int port;

    @BeforeEach
    void open() throws IOException
    {
        assumeThat(UringSelectorProvider.INSTANCE.refusal()).as("io_uring here").isNull();
    }

    private void start(final UringSelectorProvider provider) throws IOException
    {
        selector = (UringSelector)provider.openSelector();
        listener = provider.openServerSocketChannel();
        listener.bind(new InetSocketAddress("127.0.0.1", 0));
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT);
        port = ((InetSocketAddress)listener.getLocalAddress()).getPort();
    }

    @AfterEach
    void close() throws Exception
    {
        for (final AutoCloseable closeable : opened)
        {
            closeable.close();
        }
        if (listener != null)
        {
            listener.close();
        }
        if (selector != null)
        {
            selector.close();
        }
    }

    private Socket peer() throws IOException
    {
        final Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(60_000);
        opened.add(socket);
        return socket;
    }

    private SocketChannel accept(final int ops) throws IOException
    {
        final SocketChannel[] accepted = new SocketChannel[1];
        selectUntil("a connection accepted", () ->
        {
            try
            {
                accepted[0] = listener.accept();
                return accepted[0] != null;
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        });
        accepted[0].configureBlocking(false);
        accepted[0].register(selector, ops);
        opened.add(accepted[0]);
        return accepted[0];
    }

    private void selectUntil(final String what, final BooleanSupplier done) throws IOException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!done.getAsBoolean())
        {
            assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
            selector.select(10);
            selector.selectedKeys().clear();
        }
    }

    /** Selects and reads until a read gives something: bytes, or -1 at the end of the stream. */
    private int firstNonEmptyRead(final SocketChannel channel) throws IOException
    {
        final int[] read = new int[1];
        selectUntil("a read that gives something", () ->
        {
            try
            {
                read[0] = channel.read(ByteBuffer.allocate(8));
                return read[0] != 0;
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        });
        return read[0];
    }

    private static byte[] pattern(final int length, final int seed)
    {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(i * 31 + seed);
        }
        return bytes;
    }

    private static CompletableFuture<Void> writeAll(final Socket socket, final byte[] bytes)
    {
        return CompletableFuture.runAsync(() ->
        {
            try
            {
                final OutputStream out = socket.getOutputStream();
                out.write(bytes);
                out.flush();
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        });
    }

    private static CompletableFuture<byte[]> readToEnd(final Socket socket)
    {
        return CompletableFuture.supplyAsync(() ->
        {
            try
            {
                return socket.getInputStream().readAllBytes();
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        });
    }

    /** Reads from a channel into a sink until it has the expected count, selecting between reads. */
    private void readFully(final SocketChannel channel, final ByteBuffer sink) throws IOException
    {
        selectUntil("the bytes read", () ->
        {
            try
            {
                while (sink.hasRemaining() && channel.read(sink) > 0)
                {
                    // all that is queued
                }
                return !sink.hasRemaining();
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        });
    }

    @Test
    void aPausedConnectionsReceiveIsCancelledItsBytesWaitAndAllArriveInOrderOnResume() throws Exception
    {
        start(new UringSelectorProvider(64, 4096, 4096));
        final Socket paused = peer();
        final SocketChannel channel = accept(SelectionKey.OP_READ);
        final UringSelectionKey key = (UringSelectionKey)channel.keyFor(selector);
        // More than loopback's socket buffers hold, so that the writer waits while the reads are paused.
        final byte[] sent = pattern(32 * 1024 * 1024, 7);
        final CompletableFuture<Void> writing = writeAll(paused, sent);
        selectUntil("bytes received", () -> key.hasReceived());

        key.interestOps(0);
        selectUntil("the receive cancelled", () -> !key.receiving);
        final int held = selector.buffersHeld();
        // The kernel's socket buffer holds the rest: no more provided buffers go to the paused connection.
        for (int i = 0; i < 20; i++)
        {
            selector.select(5);
        }
        assertThat(selector.buffersHeld()).isEqualTo(held).isLessThanOrEqualTo(64);
        assertThat(key.receiving).isFalse();
        assertThat(writing).isNotDone();

        key.interestOps(SelectionKey.OP_READ);
        final ByteBuffer got = ByteBuffer.allocate(sent.length);
        readFully(channel, got);
        writing.get(60, TimeUnit.SECONDS);
        assertThat(got.array()).isEqualTo(sent);
        assertThat(selector.buffersHeld()).as("every provided buffer back in the ring").isZero();
        assertThat(key.hasReceived()).as("its receive queue back with the selector, as an idle key holds none")
            .isFalse();
    }

    @Test
    void aRingWithTooFewBuffersRunsDryAndEveryConnectionStillGetsItsBytesInOrder() throws Exception
    {
        start(new UringSelectorProvider(4, 512, 4096));
        final int connections = 3;
        final SocketChannel[] channels = new SocketChannel[connections];
        final byte[][] sent = new byte[connections][];
        final ByteBuffer[] got = new ByteBuffer[connections];
        final List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (int i = 0; i < connections; i++)
        {
            final Socket socket = peer();
            channels[i] = accept(SelectionKey.OP_READ);
            sent[i] = pattern(200 * 1024, i);
            got[i] = ByteBuffer.allocateDirect(sent[i].length);
            writes.add(writeAll(socket, sent[i]));
        }
        selectUntil("every byte read", () ->
        {
            boolean all = true;
            for (int i = 0; i < connections; i++)
            {
                try
                {
                    // Slowly, a few hundred bytes a select, so that the buffers run out.
                    final ByteBuffer slice = got[i].slice(got[i].position(), Math.min(got[i].remaining(), 300));
                    final int read = channels[i].read(slice);
                    got[i].position(got[i].position() + Math.max(read, 0));
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException(ex);
                }
                all &= !got[i].hasRemaining();
            }
            return all;
        });
        for (int i = 0; i < connections; i++)
        {
            writes.get(i).get(60, TimeUnit.SECONDS);
            final byte[] bytes = new byte[sent[i].length];
            got[i].flip().get(bytes);
            assertThat(bytes).as("connection %d", i).isEqualTo(sent[i]);
        }
        assertThat(selector.starvations()).as("receives that found no buffer").isPositive();
        assertThat(selector.buffersHeld()).isZero();
    }

    @Test
    void aCloseWaitsForTheStagedBytesThenThePeerReadsTheEnd() throws Exception
    {
        start(new UringSelectorProvider(16, 1024, 64 * 1024));
        final Socket socket = peer();
        final SocketChannel channel = accept(SelectionKey.OP_READ);
        final CompletableFuture<byte[]> reading = readToEnd(socket);
        final byte[] sent = pattern(60 * 1024, 3);
        assertThat(channel.write(ByteBuffer.wrap(sent))).as("staged at once").isEqualTo(sent.length);
        channel.close();
        selectUntil("the peer read to the end", reading::isDone);
        assertThat(reading.get()).isEqualTo(sent);
        selector.selectNow();
        assertThat(selector.keys()).hasSize(1);
    }

    @Test
    void aReadAWriteOrAnInterestChangeOnAnotherThreadThanTheSelectingOneFailsClearly() throws Exception
    {
        start(new UringSelectorProvider(16, 1024, 64 * 1024));
        peer();
        final SocketChannel channel = accept(SelectionKey.OP_READ);
        final SelectionKey key = channel.keyFor(selector);
        final List<Throwable> failures = new ArrayList<>();
        final Thread other = new Thread(() ->
        {
            failures.add(catchThrowableOfType(IllegalStateException.class,
                () -> channel.write(ByteBuffer.wrap(new byte[] {1}))));
            failures.add(catchThrowableOfType(IllegalStateException.class,
                () -> channel.read(ByteBuffer.allocate(16))));
            failures.add(catchThrowableOfType(IllegalStateException.class,
                () -> key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE)));
        }, "not-the-selector");
        other.start();
        other.join(30_000);
        assertThat(failures).hasSize(3).doesNotContainNull();
        assertThat(failures.get(0)).hasMessageContaining("write").hasMessageContaining("not-the-selector")
            .hasMessageContaining(Thread.currentThread().getName());
        assertThat(failures.get(1)).hasMessageContaining("read");
        assertThat(failures.get(2)).hasMessageContaining("interest");
        assertThat(key.interestOps()).as("left as it was").isEqualTo(SelectionKey.OP_READ);
        assertThat(channel.write(ByteBuffer.wrap(new byte[] {1}))).as("on the selecting thread").isEqualTo(1);
    }

    @Test
    void writesBeyondTheSendBufferAreTakenAsItDrainsAndAShutdownWaitsForThem() throws Exception
    {
        start(new UringSelectorProvider(16, 1024, 4096));
        final Socket socket = peer();
        final SocketChannel channel = accept(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        final CompletableFuture<byte[]> reading = readToEnd(socket);
        final byte[] sent = pattern(1024 * 1024, 5);
        final ByteBuffer source = ByteBuffer.allocateDirect(sent.length).put(sent).flip();
        selectUntil("everything staged", () ->
        {
            try
            {
                final int written = channel.write(source);
                assertThat(written).isLessThanOrEqualTo(4096);
                return !source.hasRemaining();
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        });
        channel.shutdownOutput();
        assertThatThrownBy(() -> channel.write(ByteBuffer.wrap(new byte[1])))
            .isInstanceOf(java.nio.channels.ClosedChannelException.class);
        selectUntil("the peer read to the end", reading::isDone);
        assertThat(reading.get()).isEqualTo(sent);

        socket.getOutputStream().write("bye".getBytes());
        final ByteBuffer reply = ByteBuffer.allocate(3);
        readFully(channel, reply);
        assertThat(new String(reply.array())).isEqualTo("bye");
    }

    @Test
    void aReadAfterTheOutputIsShutSeesWhatThePeerSentSinceTheSelectSoALingeringCloseDrainsIt() throws Exception
    {
        start(new UringSelectorProvider(16, 1024, 4096));
        final Socket socket = peer();
        final SocketChannel channel = accept(SelectionKey.OP_READ);
        final CompletableFuture<byte[]> reading = readToEnd(socket);
        socket.getOutputStream().write("abc".getBytes());
        final int[] reads = {0, 0};
        final ByteBuffer more = ByteBuffer.allocate(16);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (reads[0] == 0 && System.nanoTime() < deadline)
        {
            selector.select(key ->
            {
                try
                {
                    reads[0] = channel.read(ByteBuffer.allocate(16));
                    // The peer goes on sending after the select that reported the key, as a peer still sending a
                    // request does while its answer is a goodbye and a close.
                    socket.getOutputStream().write("def".getBytes());
                    Thread.sleep(50);
                    channel.write(ByteBuffer.wrap("bye".getBytes()));
                    channel.shutdownOutput();
                    // A lingering close's probe: bytes unread here mean a close now would reset the peer.
                    reads[1] = channel.read(more);
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException(ex);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }, 10);
        }
        assertThat(reads[0]).as("the first bytes").isEqualTo(3);
        assertThat(reads[1]).as("the bytes that came after the select, seen by the probe").isEqualTo(3);
        assertThat(new String(more.array(), 0, 3)).isEqualTo("def");
        channel.close();
        selectUntil("the peer read to the end", reading::isDone);
        assertThat(reading.get()).isEqualTo("bye".getBytes());
    }

    @Test
    void aReadWithNoReceiveArmedTakesWhatTheSocketHoldsInOrder() throws Exception
    {
        start(new UringSelectorProvider(16, 1024, 4096));
        final Socket socket = peer();
        final SocketChannel channel = accept(SelectionKey.OP_READ);
        final UringSelectionKey key = (UringSelectionKey)channel.keyFor(selector);
        socket.getOutputStream().write("abc".getBytes());
        final ByteBuffer first = ByteBuffer.allocate(3);
        readFully(channel, first);
        // Waiting to write only, as a close lingering for its buffered bytes does: no receive stays armed.
        key.interestOps(SelectionKey.OP_WRITE);
        selectUntil("the receive cancelled", () -> !key.receiving);

        socket.getOutputStream().write("def".getBytes());
        final ByteBuffer second = ByteBuffer.allocate(3);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (second.hasRemaining() && System.nanoTime() < deadline)
        {
            assertThat(channel.read(second)).isNotNegative();
            selector.selectNow();
        }
        assertThat(new String(second.array())).as("read from the socket itself").isEqualTo("def");

        socket.getOutputStream().write("ghi".getBytes());
        key.interestOps(SelectionKey.OP_READ);
        final ByteBuffer third = ByteBuffer.allocate(3);
        readFully(channel, third);
        assertThat(new String(third.array())).as("and then through the ring again").isEqualTo("ghi");
        socket.shutdownOutput();
        assertThat(firstNonEmptyRead(channel)).as("the end of the stream").isEqualTo(-1);
    }

    @Test
    void theEndOfTheStreamAndAResetComeAfterTheBytesBeforeThem() throws Exception
    {
        start(new UringSelectorProvider(16, 1024, 4096));
        final Socket closing = peer();
        final SocketChannel first = accept(SelectionKey.OP_READ);
        closing.getOutputStream().write("abc".getBytes());
        closing.close();
        final ByteBuffer got = ByteBuffer.allocate(3);
        readFully(first, got);
        assertThat(new String(got.array())).isEqualTo("abc");
        assertThat(firstNonEmptyRead(first)).as("the end of the stream").isEqualTo(-1);

        final Socket resetting = peer();
        final SocketChannel second = accept(SelectionKey.OP_READ);
        resetting.setSoLinger(true, 0);
        resetting.close();
        final IOException[] failure = new IOException[1];
        selectUntil("the reset", () ->
        {
            try
            {
                return second.read(ByteBuffer.allocate(8)) != 0;
            }
            catch (final IOException ex)
            {
                failure[0] = ex;
                return true;
            }
        });
        assertThat(failure[0]).isNotNull().hasMessageContaining("reset");
    }

    @Test
    void aResetThatASendTookFirstIsStillTheReadsFailureNotTheEndOfTheStream() throws Exception
    {
        final SocketChannel channel = resetTakenByASend();
        channel.keyFor(selector).interestOps(SelectionKey.OP_READ); // the read comes through the ring
        assertThat(readAfterTheReset(channel)).hasMessageContaining("reset");
    }

    @Test
    void aResetThatASendTookFirstFailsAReadOfTheSocketItselfToo() throws Exception
    {
        final SocketChannel channel = resetTakenByASend(); // no receive armed: the read calls the kernel
        assertThat(readAfterTheReset(channel)).hasMessageContaining("reset");
    }

    /** A connection whose peer reset it, a send of this side meeting the reset first, with no receive armed. */
    private SocketChannel resetTakenByASend() throws IOException
    {
        start(UringSelectorProvider.INSTANCE);
        final Socket resetting = peer();
        final SocketChannel channel = accept(0);
        resetting.setSoLinger(true, 0);
        resetting.close();
        // The kernel reports a reset once, to the first call on the socket: here the send's. After it a receive
        // finds only the end of the stream.
        selectUntil("the send's failure", () ->
        {
            try
            {
                channel.write(ByteBuffer.wrap("after the reset".getBytes()));
                return false;
            }
            catch (final IOException ex)
            {
                return true;
            }
        });
        return channel;
    }

    /** The failure of the first read that gives something, through {@link #firstNonEmptyRead}. */
    private IOException readAfterTheReset(final SocketChannel channel)
    {
        final UncheckedIOException failure = catchThrowableOfType(UncheckedIOException.class,
            () -> firstNonEmptyRead(channel));
        assertThat(failure).as("the read after the reset failed").isNotNull();
        return failure.getCause();
    }

    @Test
    void aWakeupEndsASelectThatWouldWait() throws Exception
    {
        start(new UringSelectorProvider(16, 1024, 4096));
        final CompletableFuture<Void> waker = CompletableFuture.runAsync(() ->
        {
            try
            {
                Thread.sleep(200);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            selector.wakeup();
        });
        final long start = System.nanoTime();
        selector.select(60_000);
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(30));
        waker.get();
        // Woken ahead: the next select returns at once too, as the JDK's does.
        selector.wakeup();
        selector.select(60_000);
    }

    @Test
    void aClosedConnectionsSlotServesTheNextWithOnlyItsOwnBytes() throws Exception
    {
        start(new UringSelectorProvider(64, 1024, 4096));
        for (int round = 0; round < 50; round++)
        {
            final Socket socket = peer();
            final SocketChannel channel = accept(SelectionKey.OP_READ);
            final UringSelectionKey key = (UringSelectionKey)channel.keyFor(selector);
            final byte[] mine = pattern(100, round);
            socket.getOutputStream().write(mine);
            final ByteBuffer got = ByteBuffer.allocate(mine.length);
            readFully(channel, got);
            assertThat(got.array()).isEqualTo(mine);
            // Its peer goes on sending while it closes with its receive armed: none of that reaches the next.
            writeAll(socket, pattern(32 * 1024, 99));
            channel.close();
            selector.selectNow();
            assertThat(key.slot).isLessThan(4);
        }
    }

    @Test
    void aKeyCancelledWithItsChannelOpenLeavesItsQueuedBytesThenTheChannelCallsTheKernel() throws Exception
    {
        start(new UringSelectorProvider(16, 1024, 4096));
        final Socket socket = peer();
        final SocketChannel channel = accept(SelectionKey.OP_READ);
        final UringSelectionKey key = (UringSelectionKey)channel.keyFor(selector);
        socket.getOutputStream().write("abc".getBytes());
        selectUntil("bytes queued", () -> key.hasReceived());
        key.cancel();
        selectUntil("the key let go", () -> key.released);

        final ByteBuffer first = ByteBuffer.allocate(3);
        assertThat(channel.read(first)).isEqualTo(3);
        assertThat(new String(first.array())).isEqualTo("abc");
        socket.getOutputStream().write("def".getBytes());
        final ByteBuffer second = ByteBuffer.allocate(3);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (second.hasRemaining() && System.nanoTime() < deadline)
        {
            channel.read(second);
        }
        assertThat(new String(second.array())).isEqualTo("def");
        assertThat(channel.write(ByteBuffer.wrap("xyz".getBytes()))).isEqualTo(3);
        assertThat(socket.getInputStream().readNBytes(3)).isEqualTo("xyz".getBytes());
    }

    @Test
    void theFirstThreadToSelectOwnsTheRingAnotherMayNotSelectItAndMayStillCloseIt() throws Exception
    {
        start(UringSelectorProvider.INSTANCE);
        final Socket peer = peer();
        final SocketChannel[] channel = new SocketChannel[1];
        final ByteBuffer echo = ByteBuffer.allocate(5);
        final Thread owner = new Thread(() ->
        {
            try
            {
                channel[0] = accept(SelectionKey.OP_READ);
                peer.getOutputStream().write("hello".getBytes());
                readFully(channel[0], echo);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }, "ring-owner");
        final CompletableFuture<Void> ran = new CompletableFuture<>();
        owner.setUncaughtExceptionHandler((thread, failure) -> ran.completeExceptionally(failure));
        owner.start();
        owner.join(60_000);
        ran.complete(null);
        ran.get();
        assertThat(new String(echo.array())).as("what the owner read").isEqualTo("hello");
        assumeThat(kernelDefersTaskRun()).as("SINGLE_ISSUER and DEFER_TASKRUN (Linux 6.1 on)").isTrue();
        assertThat(selector.ownedByOneThread()).as("a ring owned by its first selecting thread").isTrue();

        assertThatThrownBy(selector::selectNow).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("ring-owner");
        // A receive is still armed on the owner's ring: closing from here may not wait for it, and does not hang.
        selector.close();
        assertThat(selector.isOpen()).isFalse();
        channel[0].close();
    }

    private static boolean kernelDefersTaskRun()
    {
        try (Arena arena = Arena.ofConfined(); IoUring ring = IoUring.open(arena, new UringCalls(arena), 2))
        {
            return ring.defersTaskRun();
        }
    }
}
