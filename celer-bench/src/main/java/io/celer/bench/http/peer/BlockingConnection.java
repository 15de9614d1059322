package io.celer.bench.http.peer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

/**
 * One connection served by one thread that blocks in read: the requests in what it reads are answered in one
 * write, pipelined ones included, until the client or a {@code Connection: close} ends it.
 *
 * @param socket    the accepted socket.
 * @param responses what to answer.
 * @param probe     counts requests and the thread's allocation.
 */
record BlockingConnection(Socket socket, RawResponses responses, ThreadsProbe probe) implements Runnable
{
    private static final int IN_CAPACITY = 8192;
    private static final int OUT_CAPACITY = 4 * RawResponses.MAX_LENGTH;

    @Override
    public void run()
    {
        try (Socket s = socket)
        {
            s.setTcpNoDelay(true);
            serve(s.getInputStream(), s.getOutputStream());
        }
        catch (final IOException ex)
        {
            // A client that resets its connection (ab, wrk at the end of a run) is normal.
        }
        finally
        {
            probe.retire();
        }
    }

    private void serve(final InputStream in, final OutputStream out) throws IOException
    {
        final RequestScanner request = new RequestScanner();
        final byte[] received = new byte[IN_CAPACITY];
        final byte[] reply = new byte[OUT_CAPACITY];
        int start = 0;
        int end = 0;
        while (true)
        {
            final int read = in.read(received, end, received.length - end);
            if (read < 0)
            {
                return;
            }
            end += read;
            int replyEnd = 0;
            boolean open = true;
            int next;
            while (open && (next = request.scan(received, start, end)) >= 0)
            {
                if (replyEnd > OUT_CAPACITY - RawResponses.MAX_LENGTH)
                {
                    out.write(reply, 0, replyEnd);
                    replyEnd = 0;
                }
                replyEnd = responses.write(request, reply, replyEnd);
                probe.served();
                open = RawResponses.keepsOpen(request);
                start = next;
            }
            if (replyEnd > 0)
            {
                out.write(reply, 0, replyEnd);
            }
            if (!open)
            {
                return;
            }
            if (start == end)
            {
                start = 0;
                end = 0;
            }
            else if (end == received.length)
            {
                if (start == 0)
                {
                    return;
                }
                System.arraycopy(received, start, received, 0, end - start);
                end -= start;
                start = 0;
            }
        }
    }
}
