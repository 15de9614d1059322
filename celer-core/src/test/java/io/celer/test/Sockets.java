package io.celer.test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * The test side's plain sockets: a free loopback port, and lines written and read as US-ASCII.
 */
public final class Sockets
{
    private Sockets()
    {
    }

    /**
     * A loopback port bound but not listening: a connection to it is refused, and no other socket can take it
     * (as one could a port that {@link #freePort()} found free, while a test waits with nothing on it), until the
     * channel is closed; bind the server meant for it right after.
     *
     * @return the channel holding the port.
     * @throws IOException if no port can be bound.
     */
    public static SocketChannel refusingPort() throws IOException
    {
        final SocketChannel reserved = SocketChannel.open();
        reserved.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return reserved;
    }

    /**
     * The local port of a bound channel.
     *
     * @param channel the channel.
     * @return its port.
     * @throws IOException if it is closed.
     */
    public static int portOf(final SocketChannel channel) throws IOException
    {
        return ((InetSocketAddress)channel.getLocalAddress()).getPort();
    }

    /**
     * A loopback port that was free a moment ago.
     *
     * @return the port.
     * @throws IOException if none can be found.
     */
    public static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }

    /**
     * Reads a socket's input as lines.
     *
     * @param socket the socket.
     * @return a reader of its input.
     * @throws IOException if the input cannot be had.
     */
    public static BufferedReader lineReader(final Socket socket) throws IOException
    {
        return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
    }

    /**
     * Writes a line, ended by {@code \n}.
     *
     * @param socket the socket.
     * @param line   the line without its end.
     * @throws IOException if the write fails.
     */
    public static void sendLine(final Socket socket, final String line) throws IOException
    {
        socket.getOutputStream().write((line + "\n").getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Sends a line and reads the reply line.
     *
     * @param socket        the client.
     * @param line          the line, without its end.
     * @param timeoutMillis how long to wait for the reply.
     * @return the reply, null when the connection closed, or "timeout" when nothing came in time.
     * @throws IOException if the socket fails.
     */
    public static String ask(final Socket socket, final String line, final int timeoutMillis) throws IOException
    {
        socket.setSoTimeout(timeoutMillis);
        sendLine(socket, line);
        try
        {
            return lineReader(socket).readLine();
        }
        catch (final java.net.SocketTimeoutException ex)
        {
            return "timeout";
        }
    }
}
