package io.celer.examples.support;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A blocking test client that pipelines request lines, at most {@code window} unanswered, and collects the
 * answer lines in arrival order.
 */
public final class PipelinedLineClient implements AutoCloseable
{
    private final Socket socket;
    private final BufferedReader in;
    private final BufferedWriter out;
    private final int window;

    /**
     * Connects.
     *
     * @param port   the server's port on 127.0.0.1.
     * @param window the most requests unanswered at once.
     * @throws Exception if the connect fails.
     */
    public PipelinedLineClient(final int port, final int window) throws Exception
    {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        socket.setTcpNoDelay(true);
        in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
        out = new BufferedWriter(new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.ISO_8859_1));
        this.window = window;
    }

    /**
     * Connects, exchanges the lines and closes, on a test thread.
     *
     * @param port     the server's port on 127.0.0.1.
     * @param window   the most requests unanswered at once.
     * @param lines    the requests.
     * @param answered counts answers as they arrive, across clients; may be null.
     * @return the answers, in arrival order, once all came.
     */
    public static CompletableFuture<List<String>> exchangeAsync(
        final int port, final int window, final List<String> lines, final AtomicLong answered)
    {
        return CompletableFuture.supplyAsync(() ->
        {
            try (PipelinedLineClient client = new PipelinedLineClient(port, window))
            {
                return client.exchange(lines, answered);
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
        }, io.celer.test.TestThreads.pool());
    }

    /**
     * Sends every line and reads as many answers.
     *
     * @param lines    the requests.
     * @param answered counts answers as they arrive, across clients; may be null.
     * @return the answers, in arrival order.
     * @throws Exception on a failure or a read that times out.
     */
    public List<String> exchange(final List<String> lines, final AtomicLong answered) throws Exception
    {
        final Semaphore room = new Semaphore(window);
        final Thread writer = new Thread(() ->
        {
            try
            {
                for (final String line : lines)
                {
                    if (!room.tryAcquire())
                    {
                        out.flush();
                        if (!room.tryAcquire(30, TimeUnit.SECONDS))
                        {
                            return;
                        }
                    }
                    out.write(line);
                    out.write('\n');
                }
                out.flush();
            }
            catch (final Exception ex)
            {
                // The reader sees the consequence: missing answers, or a closed socket.
            }
        }, "pipelined-writer");
        writer.setDaemon(true);
        writer.start();
        final List<String> answers = new ArrayList<>(lines.size());
        try
        {
            while (answers.size() < lines.size())
            {
                final String answer = in.readLine();
                if (answer == null)
                {
                    break;
                }
                answers.add(answer);
                room.release();
                if (answered != null)
                {
                    answered.incrementAndGet();
                }
            }
        }
        finally
        {
            writer.join(10_000);
        }
        return answers;
    }

    /**
     * Sends text as it is, without waiting for answers.
     *
     * @param text the bytes, line ends included.
     */
    public void send(final String text)
    {
        try
        {
            out.write(text);
            out.flush();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Reads one answer line.
     *
     * @return the line, or null at the end of the stream.
     * @throws Exception on a failure or timeout.
     */
    public String readLine() throws Exception
    {
        return in.readLine();
    }

    /**
     * Whether an answer is already buffered or readable without blocking.
     *
     * @return true if bytes are waiting.
     * @throws Exception on a failure.
     */
    public boolean hasInput() throws Exception
    {
        return in.ready();
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
